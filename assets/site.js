// Progressive enhancements for every page: copy buttons and the "/" shortcut to search.
// Pages read fine without this file.

for (const button of document.querySelectorAll("button.copy[data-copy]")) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Press Ctrl+C";
      const code = button.parentElement.querySelector("code");
      if (code) window.getSelection().selectAllChildren(code);
    }
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  });
}

document.addEventListener("keydown", (event) => {
  if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  const box = document.getElementById("q") || document.getElementById("home-search") ||
    document.getElementById("site-search");
  if (box) {
    event.preventDefault();
    box.focus();
    box.select();
  }
});
