// Small progressive enhancements. Everything works without this file.
(function () {
  "use strict";

  // Private self-check notes: kept in this browser only (localStorage), never sent.
  function setupNotes() {
    document.querySelectorAll("textarea[data-note-key]").forEach(function (area) {
      var key = area.getAttribute("data-note-key");
      try {
        area.value = window.localStorage.getItem(key) || "";
      } catch (e) { /* storage may be disabled; the note then lives only on the page */ }
      area.addEventListener("input", function () {
        try { window.localStorage.setItem(key, area.value); } catch (e) { /* ignore */ }
      });
    });
  }

  // Drafts: a copy of what is typed stays in this browser, so an expired session or a closed
  // tab loses nothing. If the copy differs from what the server has, offer to bring it back.
  function setupDrafts() {
    document.querySelectorAll("textarea[data-draft-key]").forEach(function (area) {
      var key = area.getAttribute("data-draft-key");
      var kept = null;
      try { kept = window.localStorage.getItem(key); } catch (e) { /* storage disabled */ }
      if (kept && kept !== area.value) {
        if (!area.value) {
          area.value = kept;
        } else {
          var button = document.createElement("button");
          button.type = "button";
          button.className = "button-secondary button-small";
          button.textContent = "이 브라우저에 남은 더 최근 글 불러오기";
          button.addEventListener("click", function () {
            area.value = kept;
            area.dispatchEvent(new Event("input", { bubbles: true }));
            button.remove();
          });
          area.insertAdjacentElement("afterend", button);
        }
      }
      area.addEventListener("input", function () {
        try { window.localStorage.setItem(key, area.value); } catch (e) { /* ignore */ }
      });
    });
  }

  // Completion: tell the server once when a signed-in reader reaches each part.
  function setupPartsReached() {
    var body = document.querySelector(".lesson-body[data-part-base]");
    if (!body || body.getAttribute("data-signed-in") !== "1" || !("IntersectionObserver" in window)) return;
    var base = body.getAttribute("data-part-base");
    var token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
    var sent = {};
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var key = entry.target.getAttribute("data-part");
        if (!entry.isIntersecting || sent[key]) return;
        sent[key] = true;
        observer.unobserve(entry.target);
        fetch(base + key + "/reached", {
          method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": token }
        }).catch(function () { sent[key] = false; });
      });
    }, { rootMargin: "0px 0px -40% 0px" });
    body.querySelectorAll("section.part[data-part]").forEach(function (s) { observer.observe(s); });
  }

  // Long fields show how much room is left, so nothing is cut off without warning.
  function setupCounters() {
    document.querySelectorAll("textarea[maxlength], textarea[data-max-chars]").forEach(function (area) {
      var max = parseInt(area.getAttribute("maxlength") || area.getAttribute("data-max-chars"), 10);
      if (!max || area.readOnly || area.hidden) return;
      var counter = document.createElement("span");
      counter.className = "char-counter muted small";
      counter.id = (area.id || "field") + "-counter";
      var described = area.getAttribute("aria-describedby");
      area.setAttribute("aria-describedby", (described ? described + " " : "") + counter.id);
      function update() {
        var used = area.value.length;
        counter.textContent = used.toLocaleString("ko-KR") + " / " + max.toLocaleString("ko-KR") + "자";
        counter.classList.toggle("char-counter-full", used >= max * 0.9);
      }
      area.addEventListener("input", update);
      area.insertAdjacentElement("afterend", counter);
      update();
    });
  }

  // A refusal or an expired session is shown beside the control that failed, not only at the top:
  // a container names its own problem area with data-local-problem. Statuses there that say
  // "saved" are stale once a request failed, so they are replaced.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.xhr || detail.xhr.status < 400) return;
    var elt = (detail.requestConfig && detail.requestConfig.elt) || event.target;
    var box = elt && elt.closest ? elt.closest("[data-local-problem]") : null;
    if (!box) return;
    var local = document.getElementById(box.getAttribute("data-local-problem"));
    if (!local) return;
    detail.target = local;
    detail.shouldSwap = true;
    box.querySelectorAll("[data-save-status]").forEach(function (status) {
      status.textContent = detail.xhr.status === 401
        ? "저장 안 됨: 로그인이 만료되었습니다. 글은 이 브라우저에 남아 있습니다."
        : "저장 안 됨";
      status.classList.add("save-status-failed");
    });
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target && target.classList && target.classList.contains("local-problem") && target.firstElementChild) {
      if (target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
    }
  });

  // After htmx swaps in an answer, move focus to it so keyboard and screen reader users follow.
  document.addEventListener("htmx:afterSwap", function (event) {
    var answer = event.detail.target.querySelector(".answer[tabindex='-1']");
    if (answer) answer.focus();
  });

  // Focus after an htmx swap. When the swap removed the focused control (the "이해했어요" form, a claim's
  // 나누기 button), focus would fall to <body> and a keyboard or screen reader user would start again at the
  // top: instead focus the changed region (the nearest container of that control that is back in the page)
  // or its heading, which the screen reader then reads. A control marked data-focus-swapped (미리 보기)
  // sends focus to the heading of what it loaded even though the control itself stays.
  var FOCUS_REGIONS = "fieldset[id], section[id], article[id], div[id], form[id]";
  function focusRegion(region) {
    var heading = region.matches("h1, h2, h3, h4, h5, h6") ? region
      : region.querySelector(":scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > h5, :scope > h6, [data-focus-after-swap]");
    var target = heading || region;
    if (!target.hasAttribute("tabindex") && !target.matches("a[href], button, input, select, textarea")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus();
  }
  // The request whose swap removed the focused control. Kept per request, not as a yes/no for "the last swap":
  // another swap in between (the header's notice count loads by itself) must not make this one forget.
  var focusRequest = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement;
    if (active && active !== document.body && event.detail.target && event.detail.target.contains(active)) {
      focusRequest = event.detail.requestConfig || event.detail.elt || null;
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail.requestConfig ? event.detail.requestConfig.elt : event.detail.elt;
    var target = event.detail.target;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-focus-swapped") && target && target.isConnected) {
      focusRegion(target.firstElementChild || target);
      return;
    }
    if (!focusRequest || (event.detail.requestConfig || event.detail.elt) !== focusRequest) return;
    focusRequest = null;
    var active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    var node = elt;
    while (node && node !== document.body) {
      if (node.matches && node.matches(FOCUS_REGIONS)) {
        var region = document.getElementById(node.id);
        if (region && region !== document.body && region.offsetParent !== null) { focusRegion(region); return; }
      }
      node = node.parentElement;
    }
    if (target && target.id && document.getElementById(target.id)) focusRegion(document.getElementById(target.id));
  });

  document.addEventListener("DOMContentLoaded", function () {
    setupNotes();
    setupDrafts();
    setupPartsReached();
    setupCounters();
  });
})();
