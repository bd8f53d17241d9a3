// Grounding exercises: keyboard marking (1/2/3/4), citing lines by clicking them,
// highlighting the active claim's lines, copying the prompt, keeping a draft of the paste.
//
// The claim that receives a citation ("인용 대상", shown above the source) is the one the
// learner last worked on: pressed a key in, clicked, typed in, or chose with "이 주장에 원문
// 줄 인용하기". Moving focus forward with Tab makes a claim the target too, but moving back
// with Shift+Tab does not: going back to the source passes the earlier claims on the way.
(function () {
  "use strict";
  var active = null;
  var backwards = false;

  function claimOf(node) { return node && node.closest ? node.closest("fieldset.claim") : null; }
  function linesInput(claim) { return claim.querySelector("input[name^='lines-']"); }
  function citedOf(claim) {
    return linesInput(claim).value.split(/[\s,]+/).filter(Boolean).map(Number).filter(function (n) { return n > 0; });
  }

  function announce(claim) {
    var judged = claim.querySelector("input[type=radio]:checked");
    var label = judged ? judged.parentNode.textContent.replace(/\d/, "").trim() : "판단 없음";
    var lines = citedOf(claim);
    var text = claim.querySelector("legend").textContent + ": " + label + ", 인용 " + (lines.length ? lines.join(", ") + "번 줄" : "없음");
    var status = claim.querySelector("[data-claim-status]");
    if (status) status.textContent = text;
    var live = document.getElementById("live-claim");
    if (live) live.textContent = text;
  }

  function highlight() {
    var cited = active ? citedOf(active) : [];
    document.querySelectorAll(".source-lines li").forEach(function (li) {
      var n = Number(li.getAttribute("value"));
      li.classList.toggle("cited", cited.indexOf(n) !== -1);
      var button = li.querySelector(".line-button");
      if (button) button.setAttribute("aria-pressed", cited.indexOf(n) !== -1 ? "true" : "false");
    });
    document.querySelectorAll("fieldset.claim").forEach(function (c) { c.classList.toggle("active", c === active); });
    var target = document.getElementById("cite-target");
    if (target) target.textContent = active ? "인용 대상: " + active.querySelector("legend").textContent : "";
  }

  function setActive(claim) { if (claim && claim !== active) { active = claim; highlight(); } }

  function toggleLine(claim, n) {
    var lines = citedOf(claim);
    var at = lines.indexOf(n);
    if (at === -1) lines.push(n); else lines.splice(at, 1);
    lines.sort(function (a, b) { return a - b; });
    var input = linesInput(claim);
    input.value = lines.join(", ");
    input.dispatchEvent(new Event("change", { bubbles: true }));
    highlight();
    announce(claim);
  }

  document.addEventListener("focusin", function (event) {
    if (!backwards) setActive(claimOf(event.target));
    backwards = false;
  });
  document.addEventListener("pointerdown", function (event) { setActive(claimOf(event.target)); });

  document.addEventListener("keydown", function (event) {
    backwards = event.key === "Tab" && event.shiftKey;
    var claim = claimOf(event.target);
    if (!claim || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key !== "Tab" && event.key !== "Shift") setActive(claim);
    var tag = event.target.tagName;
    if ((tag === "INPUT" && event.target.type === "text") || tag === "SELECT" || tag === "TEXTAREA") return;
    var index = ["1", "2", "3", "4"].indexOf(event.key);
    if (index === -1) return;
    var radio = claim.querySelectorAll("input[type=radio]")[index];
    if (!radio || radio.disabled) return;
    event.preventDefault();
    radio.checked = true;
    // Focus follows the choice, so a following Space or arrow key acts on the checked radio.
    radio.focus();
    radio.dispatchEvent(new Event("change", { bubbles: true }));
    announce(claim);
  });

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest("[data-source-toggle]");
    if (toggle) {
      var panel = toggle.closest(".source-panel");
      var collapsed = panel.classList.toggle("source-collapsed");
      toggle.setAttribute("aria-expanded", collapsed ? "false" : "true");
      toggle.textContent = collapsed ? "원문 펴기" : "원문 접기";
      return;
    }
    var citeTarget = event.target.closest("[data-cite-target]");
    if (citeTarget) {
      setActive(document.getElementById("claim-" + citeTarget.getAttribute("data-cite-target")));
      announce(active);
      var folded = document.querySelector(".source-panel.source-collapsed [data-source-toggle]");
      if (folded) folded.click();  // citing needs the lines: unfold them
      var firstLine = document.querySelector(".line-button");
      if (firstLine) firstLine.focus({ preventScroll: true });  // the source is in view (sticky on a phone)
      return;
    }
    var lineButton = event.target.closest("[data-line]");
    if (lineButton) {
      var target = lineButton.hasAttribute("data-claim")
        ? document.getElementById("claim-" + lineButton.getAttribute("data-claim"))
        : active;
      if (target) toggleLine(target, Number(lineButton.getAttribute("data-line")));
      return;
    }
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var source = document.getElementById(copy.getAttribute("data-copy"));
      var status = document.getElementById("copy-status");
      navigator.clipboard.writeText(source.value).then(function () {
        status.textContent = "복사했습니다.";
      }, function () {
        source.select();
        status.textContent = "자동 복사가 막혀 있습니다. 선택된 글을 Ctrl+C로 복사하세요.";
      });
    }
  });

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input[name^='lines-']")) { setActive(claimOf(event.target)); highlight(); }
    if (event.target.closest && claimOf(event.target)) setActive(claimOf(event.target));
  });

  // Marks stay in this browser (localStorage, per attempt) until the server has them, as evidence
  // drafts do: a save that fails (an expired session, a lost connection) loses nothing and the page
  // says it was not saved. Back on the page after signing in, what was kept is applied and sent.
  function marksForm() { return document.querySelector("form[data-keep-marks]"); }
  function storeKey(form) { return "grounding-marks:" + form.getAttribute("data-attempt"); }
  function readKept(key) {
    try { return JSON.parse(window.localStorage.getItem(key) || "{}") || {}; } catch (e) { return {}; }
  }
  function writeKept(key, kept) {
    try {
      if (Object.keys(kept).length) window.localStorage.setItem(key, JSON.stringify(kept));
      else window.localStorage.removeItem(key);
    } catch (e) { /* storage disabled: the page still saves through the server */ }
  }
  function claimId(claim) { return claim.getAttribute("data-claim"); }
  function marksOf(claim) {
    var judged = claim.querySelector("input[type=radio]:checked");
    var question = claim.querySelector("select[name^='question-']");
    return { judgement: judged ? judged.value : "", lines: linesInput(claim).value,
             question: question ? question.value : "" };
  }
  function keep(claim) {
    var form = marksForm();
    if (!form || !claim) return;
    var kept = readKept(storeKey(form));
    kept[claimId(claim)] = marksOf(claim);
    writeKept(storeKey(form), kept);
  }
  function release(claims) {
    var form = marksForm();
    if (!form) return;
    var kept = readKept(storeKey(form));
    claims.forEach(function (claim) {
      var id = claimId(claim);
      if (kept[id] && JSON.stringify(kept[id]) === JSON.stringify(marksOf(claim))) delete kept[id];
    });
    writeKept(storeKey(form), kept);
  }
  function saveStatus(text, failed) {
    var status = document.getElementById("save-status");
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("save-status-failed", !!failed);
  }
  function failedText(status) {
    return status === 401 || status === 403
      ? "저장 안 됨: 로그인이 끝났습니다. 표시는 이 브라우저에 남아 있고, 다시 로그인해 이 페이지로 돌아오면 저장됩니다."
      : "저장 안 됨: 표시는 이 브라우저에 남아 있습니다. 잠시 뒤 다시 고르거나 '저장'을 눌러 주세요.";
  }
  function countJudged() {
    var counter = document.getElementById("judged-count");
    if (!counter) return;
    var claims = document.querySelectorAll("fieldset.claim");
    var judged = 0;
    claims.forEach(function (c) { if (c.querySelector("input[type=radio]:checked")) judged += 1; });
    counter.querySelector("strong").textContent = claims.length + "개 중 " + judged + "개 판단함";
  }

  function sendKept(form) {
    var key = storeKey(form);
    var kept = readKept(key);
    var claims = [];
    Object.keys(kept).forEach(function (id) {
      var claim = document.getElementById("claim-" + id);
      if (!claim) { delete kept[id]; return; }
      var marks = kept[id];
      claim.querySelectorAll("input[type=radio]").forEach(function (r) { r.checked = r.value === marks.judgement; });
      linesInput(claim).value = marks.lines || "";
      var question = claim.querySelector("select[name^='question-']");
      if (question) question.value = marks.question || "";
      claims.push(claim);
    });
    writeKept(key, kept);
    if (!claims.length) return;
    countJudged();
    highlight();
    var body = new URLSearchParams();
    body.append("csrfmiddlewaretoken", form.querySelector("input[name=csrfmiddlewaretoken]").value);
    claims.forEach(function (claim) {
      var id = claimId(claim), marks = kept[id];
      body.append("judgement-" + id, marks.judgement || "");
      body.append("lines-" + id, marks.lines || "");
      body.append("question-" + id, marks.question || "");
    });
    saveStatus("이 브라우저에 남아 있던 표시를 저장하는 중…", false);
    fetch(form.action, { method: "POST", credentials: "same-origin", body: body,
                         headers: { "HX-Request": "true" } }).then(function (response) {
      if (response.ok) {
        release(claims);
        saveStatus("이 브라우저에 남아 있던 표시 " + claims.length + "개를 저장했습니다.", false);
      } else {
        saveStatus(failedText(response.status), true);
      }
    }, function () { saveStatus(failedText(0), true); });
  }

  document.addEventListener("change", function (event) {
    var claim = claimOf(event.target);
    if (claim && marksForm()) { keep(claim); countJudged(); }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var claim = claimOf(event.detail.elt);
    if (claim && event.detail.elt === claim) saveStatus("저장하는 중…", false);
  });
  // A refused save never replaces the status line with an error page: the status says it failed
  // (a sign-in request is shown in the page's problem area by the server's retarget).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var claim = claimOf(event.detail.elt);
    if (!claim || event.detail.elt !== claim || !event.detail.xhr || event.detail.xhr.status < 400) return;
    if (event.detail.target && event.detail.target.id === "save-status") event.detail.shouldSwap = false;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var claim = claimOf(event.detail.elt);
    if (!claim || event.detail.elt !== claim) return;
    if (event.detail.successful) release([claim]);
    else saveStatus(failedText(event.detail.xhr ? event.detail.xhr.status : 0), true);
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.documentElement.classList.add("js");
    var first = document.querySelector("fieldset.claim");
    if (first) { active = first; highlight(); }
    var form = marksForm();
    if (form) sendKept(form);
    var done = document.querySelector("[data-attempt-submitted]");
    if (done) writeKept("grounding-marks:" + done.getAttribute("data-attempt-submitted"), {});
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!document.body.contains(active)) active = document.querySelector("fieldset.claim");
    highlight();
  });
})();
