// Lab page helpers: reset to starter code and inject the step's failure into the editor.
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

  document.addEventListener("click", function (event) {
    var reset = event.target.closest("[data-reset-editor]");
    if (reset) {
      var starter = document.getElementById(reset.getAttribute("data-starter")).value;
      setCode(reset.getAttribute("data-reset-editor"), starter);
      return;
    }
    var inject = event.target.closest("[data-inject-find]");
    if (inject) {
      var id = inject.getAttribute("data-editor");
      var find = inject.getAttribute("data-inject-find");
      var code = getCode(id);
      var status = document.getElementById("lab-status");
      if (code.indexOf(find) === -1) {
        status.textContent = "편집기 코드에서 '" + find + "'를 찾지 못했습니다. 직접 고쳐 주세요.";
        return;
      }
      setCode(id, code.replace(find, inject.getAttribute("data-inject-replace")));
      var radio = document.querySelector("input[name=step][value=inject]");
      if (radio) radio.checked = true;
      status.textContent = "실패를 주입했습니다. '실패 주입하기' 단계로 실행하세요.";
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.documentElement.classList.add("js");
  });

})();
