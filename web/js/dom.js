// Small DOM helpers. Text from other people only ever goes in through textContent.

/** The element of an id; the pages' own ids are there (any: the caller knows its kind). */
/** @type {(id: string) => any} */
export const $ = (id) => document.getElementById(id);

/** Build an element: el("li", {class: "x", text: name, data: {id}}, ...children). */
export function el(tag, opts = {}, ...children) {
  const node = document.createElement(tag);
  if (opts.class) node.className = opts.class;
  if (opts.text !== undefined) node.textContent = String(opts.text);
  if (opts.title) node.title = opts.title;
  if (opts.type) node.type = opts.type;
  for (const [k, v] of Object.entries(opts.data || {})) node.dataset[k] = String(v);
  if (opts.onclick) node.addEventListener("click", opts.onclick);
  for (const c of children) if (c) node.append(c);
  return node;
}

/** Show one screen (a <section class="screen">) and hide the others. A screen newly shown
 * takes the keyboard's focus: its [data-focus] (the table, whose keys aim) or its heading, so
 * that the keyboard and a screen reader start there, not on a button just hidden (issue 36). */
export function showScreen(id) {
  const changed = document.body.dataset.screen !== id;
  for (const s of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".screen"))) s.hidden = s.id !== id;
  document.body.dataset.screen = id;
  const screen = changed ? document.getElementById(id) : null;
  /** @type {HTMLElement | null | undefined} */
  const target = screen?.querySelector("[data-focus]") ?? screen?.querySelector("h1, h2");
  if (!target) return;
  if (!target.hasAttribute("tabindex")) target.tabIndex = -1; // focusable, not in the Tab order
  target.focus({ preventScroll: true });
}

/** @type {number | undefined} */
let toastTimer;
export function toast(text, ms = 3500) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    t.hidden = true;
  }, ms);
}
