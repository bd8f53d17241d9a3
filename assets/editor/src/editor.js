// Code editor for Python labs: turns every <textarea data-code-editor> into a CodeMirror 6 editor.
//
// Progressive enhancement: without JavaScript the page keeps the plain textarea. With it, the
// textarea is hidden but stays in its form, and its value follows every change in the editor,
// so a normal form post or an htmx hx-include still sends the code.
//
// Markup:
//   <label for="code">코드</label>
//   <textarea id="code" name="code" data-code-editor data-run-button="run"
//             aria-describedby="code-help" rows="12">…</textarea>
//   <button id="run" type="submit">실행</button>
//
// Keys: the default CodeMirror keymap and undo/redo history; Tab / Shift-Tab indent and
// dedent. To leave the editor with the keyboard press Escape, then Tab (CodeMirror's standard
// "Escape, then Tab" behaviour: after Escape the next Tab within two seconds moves focus).
// Ctrl-M (Shift-Alt-M on macOS) toggles a mode where Tab always moves focus.
// Ctrl-Enter / Cmd-Enter clicks the button whose id is in data-run-button.
//
// Other scripts: window.tutorEditor.get(textareaId) and .set(textareaId, text).
// An "input" event is fired on the textarea after each change, as a real textarea would.

import { EditorState, Prec } from "@codemirror/state";
import {
  EditorView,
  keymap,
  lineNumbers,
  highlightActiveLineGutter,
  highlightSpecialChars,
  drawSelection,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { HighlightStyle } from "@codemirror/language";

const LINE_HEIGHT = 1.55;
const SELECTOR = "textarea[data-code-editor]";
const views = new WeakMap(); // textarea -> EditorView

// CodeMirror's default colours for regular expressions, escapes and special strings (#e40,
// 3.84:1 on white) and for invalid code (#f00, 4.0:1) fail WCAG 1.4.3. These darker shades
// (6.1:1 and 6.9:1 on white) replace them; every other colour of the default style is kept.
const DARKER = { "#e40": "#b03a00", "#f00": "#c00000" };
const accessibleHighlight = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) => (DARKER[spec.color] ? { ...spec, color: DARKER[spec.color] } : spec)),
);

const theme = EditorView.theme({
  "&": {
    fontSize: "inherit",
    // Same box as the site's textarea (static/css/site.css).
    backgroundColor: "#ffffff",
    border: "1px solid #9aa1a9",
    borderRadius: "6px",
    marginBottom: "0.5rem",
  },
  "&.cm-focused": {
    outline: "3px solid var(--focus, #c2410c)",
    outlineOffset: "2px",
  },
  ".cm-scroller": {
    // Same stack as the site's <code>; a list (not bare "monospace") also avoids the
    // browsers' smaller default size for monospace text, so the size follows the page.
    fontFamily:
      '"D2Coding", "Noto Sans Mono CJK KR", ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
    lineHeight: String(LINE_HEIGHT),
    borderRadius: "inherit",
  },
  ".cm-gutters": {
    borderTopLeftRadius: "inherit",
    borderBottomLeftRadius: "inherit",
  },
  ".cm-content": { padding: "0.5rem 0" },
  ".cm-line": { padding: "0 0.6rem" },
  // The base theme draws hidden characters in "red" (4.0:1 on white).
  ".cm-specialChar": { color: "#c00000" },
});

// Minimum height from the textarea's rows (default 8), so the gutter runs the full height.
const heightThemes = new Map();
function heightTheme(rows) {
  if (!heightThemes.has(rows)) {
    const minHeight = `calc(${rows * LINE_HEIGHT}em + 1rem)`;
    heightThemes.set(rows, EditorView.theme({ ".cm-content, .cm-gutter": { minHeight } }));
  }
  return heightThemes.get(rows);
}

function labelText(textarea) {
  const own = textarea.getAttribute("aria-label");
  if (own && own.trim()) return own.trim();
  const ids = (textarea.getAttribute("aria-labelledby") || "").split(/\s+/).filter(Boolean);
  const byIds = ids
    .map((id) => document.getElementById(id))
    .filter(Boolean)
    .map((el) => el.textContent.trim())
    .join(" ");
  if (byIds) return byIds;
  const labels = textarea.labels ? Array.from(textarea.labels) : [];
  const text = labels.map((l) => l.textContent.replace(/\s+/g, " ").trim()).filter(Boolean).join(" ");
  return text || textarea.getAttribute("title") || textarea.name || "코드 편집기";
}

function clickRunButton(textarea) {
  const id = textarea.getAttribute("data-run-button");
  const button = id ? document.getElementById(id) : null;
  if (!button) return false;
  button.click();
  return true;
}

function enhance(textarea) {
  if (views.has(textarea) || textarea.disabled) return;

  const contentAttrs = { "aria-label": labelText(textarea) };
  const describedBy = textarea.getAttribute("aria-describedby");
  if (describedBy) contentAttrs["aria-describedby"] = describedBy;

  const runKey = { run: () => clickRunButton(textarea), preventDefault: true };
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        Prec.highest(keymap.of([
          { key: "Mod-Enter", ...runKey },
          { key: "Ctrl-Enter", ...runKey },
        ])),
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        drawSelection(),
        history(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(accessibleHighlight, { fallback: true }),
        python(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        EditorState.readOnly.of(textarea.readOnly),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorView.contentAttributes.of(contentAttrs),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          textarea.value = update.state.doc.toString();
          textarea.dispatchEvent(new Event("input", { bubbles: true }));
        }),
        theme,
        heightTheme(Math.min(Math.max(parseInt(textarea.getAttribute("rows"), 10) || 8, 1), 40)),
      ],
    }),
  });

  // Keep the textarea (hidden) in the form so it is still submitted and serialised.
  textarea.hidden = true;
  textarea.style.display = "none"; // CSSOM, allowed by the CSP (unlike a style attribute).
  textarea.after(view.dom);
  views.set(textarea, view);

  // A click on the <label> would focus the hidden textarea: focus the editor instead.
  for (const label of textarea.labels || []) {
    label.addEventListener("click", (event) => {
      event.preventDefault();
      view.focus();
    });
  }

  // <button type="reset"> restores the textarea's default value: show it in the editor too.
  if (textarea.form) {
    textarea.form.addEventListener("reset", () => {
      setTimeout(() => setText(view, textarea.value), 0);
    });
  }
}

function setText(view, text) {
  if (view.state.doc.toString() === text) return;
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    selection: { anchor: Math.min(view.state.selection.main.head, text.length) },
  });
}

function enhanceAll(root) {
  const scope = root && root.querySelectorAll ? root : document;
  if (scope.matches && scope.matches(SELECTOR)) enhance(scope);
  scope.querySelectorAll(SELECTOR).forEach(enhance);
}

window.tutorEditor = {
  /** The current code of the textarea with this id (null if there is none). */
  get(textareaId) {
    const textarea = document.getElementById(textareaId);
    if (!textarea) return null;
    const view = views.get(textarea);
    return view ? view.state.doc.toString() : textarea.value;
  },
  /** Replace the code in the editor and in the textarea; undoable with Ctrl-Z. */
  set(textareaId, text) {
    const textarea = document.getElementById(textareaId);
    if (!textarea) return;
    const value = String(text);
    const view = views.get(textarea);
    if (view) setText(view, value); // the update listener writes the textarea
    textarea.value = value;
  },
  /** The EditorView for the textarea with this id, for advanced use (undefined if none). */
  view(textareaId) {
    const textarea = document.getElementById(textareaId);
    return textarea ? views.get(textarea) : undefined;
  },
};

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => enhanceAll(document));
} else {
  enhanceAll(document);
}
// Content swapped in by htmx gets editors too.
document.addEventListener("htmx:load", (event) => enhanceAll(event.target));
