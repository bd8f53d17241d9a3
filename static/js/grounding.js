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
    var citeTarget = event.target.closest("[data-cite-target]");
    if (citeTarget) {
      setActive(document.getElementById("claim-" + citeTarget.getAttribute("data-cite-target")));
      announce(active);
      var firstLine = document.querySelector(".line-button");
      if (firstLine) firstLine.focus();
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

  document.addEventListener("DOMContentLoaded", function () {
    document.documentElement.classList.add("js");
    var first = document.querySelector("fieldset.claim");
    if (first) { active = first; highlight(); }
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!document.body.contains(active)) active = document.querySelector("fieldset.claim");
    highlight();
  });
})();
