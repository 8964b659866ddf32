// The pages' header on a phone (docs/client.md, "The phone"): under 600 px its links and
// switches fold into a menu opened by a button (app.css shows the button there only). The
// menu closes on Escape (the focus back on its button), on a choice made in it, on a click
// elsewhere and when the keyboard's focus leaves the header.

/**
 * Make the header's menu button open and close its menu.
 * @param {HTMLElement | null} header the page's <header id="topbar">
 */
export function foldingMenu(header = document.getElementById("topbar")) {
  const button = /** @type {HTMLElement | null | undefined} */ (header?.querySelector(".menu-button"));
  const menu = button && document.getElementById(button.getAttribute("aria-controls") || "");
  if (!header || !button || !menu) return; // a page without a header (the printable table)
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  /** @param {boolean} open */
  const set = (open) => {
    button.setAttribute("aria-expanded", String(open));
    header.classList.toggle("menu-open", open);
  };
  button.addEventListener("click", () => {
    set(!isOpen());
    if (isOpen()) /** @type {HTMLElement | null} */ (menu.querySelector("a, button:not([hidden]), select"))?.focus();
  });
  header.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !isOpen()) return;
    set(false);
    button.focus();
  });
  // a link followed, a switch pressed or a language chosen: the menu has done its work
  menu.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest("a, button")) set(false);
  });
  menu.addEventListener("change", () => set(false));
  document.addEventListener("click", (e) => {
    if (isOpen() && e.target instanceof Node && !header.contains(e.target)) set(false);
  });
  header.addEventListener("focusout", (e) => {
    if (isOpen() && !(e.relatedTarget instanceof Node && header.contains(e.relatedTarget))) set(false);
  });
}
