// Lab page helpers: reset to starter code (after asking), inject the step's failure, undo only
// that change, and bring each run's result into view beside the Run button.
(function () {
  "use strict";

  function getCode(id) {
    if (window.tutorEditor) return window.tutorEditor.get(id);
    return document.getElementById(id).value;
  }

  function setCode(id, text) {
    if (window.tutorEditor) window.tutorEditor.set(id, text);
    else document.getElementById(id).value = text;
  }

  function say(text) {
    var status = document.getElementById("lab-status");
    if (status) status.textContent = text;
  }

  // Replace the first ``find`` with ``replace``; say so, or say why nothing changed.
  function swapOnce(id, find, replace, done, missing) {
    var code = getCode(id);
    if (code.indexOf(find) === -1) {
      say(missing);
      return false;
    }
    setCode(id, code.replace(find, replace));
    say(done);
    return true;
  }

  function chooseStep(kind) {
    var radio = document.querySelector("input[name=step][value=" + kind + "]");
    if (radio) radio.checked = true;
  }

  document.addEventListener("click", function (event) {
    var reset = event.target.closest("[data-reset-editor]");
    if (reset) {
      var question = reset.getAttribute("data-confirm");
      if (question && !window.confirm(question)) {
        say("되돌리지 않았습니다. 편집기의 코드는 그대로입니다.");
        return;
      }
      setCode(reset.getAttribute("data-reset-editor"), document.getElementById(reset.getAttribute("data-starter")).value);
      say("처음 받은 코드로 되돌렸습니다.");
      return;
    }
    var inject = event.target.closest("[data-inject-find]");
    if (inject) {
      var find = inject.getAttribute("data-inject-find");
      if (swapOnce(inject.getAttribute("data-editor"), find, inject.getAttribute("data-inject-replace"),
        "실패를 주입했습니다. '실패 주입하기' 단계로 실행하세요.",
        "편집기 코드에서 '" + find + "'를 찾지 못했습니다. 직접 고쳐 주세요.")) chooseStep("inject");
      return;
    }
    var undo = event.target.closest("[data-undo-inject-find]");
    if (undo) {
      var injected = undo.getAttribute("data-undo-inject-find");
      if (swapOnce(undo.getAttribute("data-editor"), injected, undo.getAttribute("data-undo-inject-replace"),
        "주입한 한 줄만 되돌렸습니다. 다른 곳은 그대로입니다. '되돌리기' 단계로 실행하세요.",
        "편집기 코드에 주입한 '" + injected + "'가 없습니다. 이미 되돌렸거나 직접 고친 것 같습니다.")) chooseStep("restore");
    }
  });

  // A run's result lands in #run-area, just under the Run button: scroll to it and announce it
  // once it is finished (the polled status replaces itself, so look at the area after each settle).
  document.addEventListener("htmx:afterSettle", function () {
    var area = document.getElementById("run-area");
    var first = area ? area.firstElementChild : null;
    if (!first || first.hasAttribute("data-announced")) return;
    var scroll = !first.hasAttribute("data-seen");
    first.setAttribute("data-seen", "");
    if (first.hasAttribute("data-run-finished")) {
      scroll = true;
      first.setAttribute("data-announced", "");
      var outcome = first.querySelector(".run-state .badge");
      var sentence = first.querySelector(".run-outcome");
      say("실행이 끝났습니다: " + (outcome ? outcome.textContent.trim() : "") + ". " +
        (sentence ? sentence.textContent.trim() : ""));
    }
    if (scroll && first.scrollIntoView) first.scrollIntoView({ block: "nearest" });
  });

  // Each run keeps its own prediction: once a run is accepted, the field is emptied for the next one.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful || !event.detail.elt || event.detail.elt.id !== "run-button") return;
    var prediction = document.getElementById("prediction");
    if (prediction && prediction.value) {
      prediction.value = "";
      prediction.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.documentElement.classList.add("js");
  });

})();
