// The export page's copy button: the text of its textarea to the clipboard, with a visible
// "Skopiowano". Without JavaScript the button stays hidden and the text is selected by hand.
(function () {
  "use strict";

  function fallbackCopy(area) {
    area.focus();
    area.select();
    area.setSelectionRange(0, area.value.length);
    try {
      return document.execCommand("copy");
    } catch (err) {
      return false;
    }
  }

  function copy(area) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(area.value).then(
        function () { return true; },
        function () { return fallbackCopy(area); }
      );
    }
    return Promise.resolve(fallbackCopy(area));
  }

  function confirmCopied(id, done) {
    var note = document.querySelector('[data-copied="' + id + '"]');
    if (!note) return;
    note.hidden = !done;
    if (done) {
      clearTimeout(note._timer);
      note._timer = setTimeout(function () { note.hidden = true; }, 4000);
    }
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var id = button.getAttribute("data-copy");
    var area = document.getElementById(id);
    if (!area) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(area).then(function (done) { confirmCopied(id, done); });
    });
  });
})();
