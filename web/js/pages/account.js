// The account page (/account): register, log in, log out (here or everywhere), change the
// password, delete the account. A refusal is worded from its code in the page's language
// (docs/accounts.md, "Errors") and shown under the button that was pressed, the field it is
// about focused; what went well is said at the top of the page.
import { t } from "../i18n.js";
import { accountRefusal, getJSON, postJSON, setUpPage } from "./api.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);

// Every message shown, as a function, so a change of language rewords it: element -> fn.
const shown = new Map();

function show(box, text, ok = false) {
  if (text) shown.set(box, text);
  else shown.delete(box);
  box.textContent = text ? text() : "";
  box.dataset.ok = ok ? "1" : "";
  box.hidden = !text;
}

function clearAll() {
  for (const box of [...shown.keys()]) show(box, null);
  for (const f of document.querySelectorAll("[aria-invalid]")) f.removeAttribute("aria-invalid");
}

/** The field a refusal is about, if any: it gets the focus and the message as its description. */
function fieldOf(form, body) {
  const code = body?.error;
  if (code === "bad_username" || code === "name_taken") return form.elements.username;
  if (code === "weak_password" || (code === "bad_login" && !form.elements.username)) return form.elements.password;
  return null;
}

/**
 * @param {HTMLElement} box where the refusal is said
 * @param {number} status
 * @param {{error?: string, message?: string}|null} body
 * @param {(HTMLFormElement & {elements: {username?: HTMLInputElement}})|null} [form] the form refused, its field marked
 */
function refused(box, status, body, form = null) {
  show(box, () => accountRefusal(status, body, form !== null && !form.elements.username));
  const field = form && fieldOf(form, body);
  if (field) {
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", box.id);
    field.focus();
  }
  box.scrollIntoView({ block: "nearest" });
}

function said(text) {
  show($("message"), text, true);
  $("message").focus();
}

async function showAccount() {
  const { body } = await getJSON("/api/account");
  const name = body && body.username;
  $("guest").hidden = Boolean(name);
  $("member").hidden = !name;
  if (name) {
    $("me").textContent = name;
    $("my-profile").href = `/u/${encodeURIComponent(name)}`;
  }
}

function form(id, path, done) {
  $(id).addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target;
    const data = Object.fromEntries(new FormData(f).entries());
    clearAll();
    const { status, body } = await postJSON(path, data);
    if (status !== 200) return refused(f.querySelector(".form-message"), status, body, f);
    f.reset();
    await showAccount();
    said(done(body));
  });
}

form("login-form", "/api/account/login", (b) => () => t("acct.welcome_back", { name: b.username }));
form("register-form", "/api/account/register", (b) => () => t("acct.welcome", { name: b.username }));
form("password-form", "/api/account/password", () => () => t("acct.password_changed"));
form("delete-form", "/api/account/delete", () => () => t("acct.deleted"));

for (const [id, path, key] of [
  ["logout", "/api/account/logout", "acct.logged_out"],
  ["logout-all", "/api/account/logout-all", "acct.logged_out_all"],
]) {
  $(id).addEventListener("click", async () => {
    clearAll();
    const { status, body } = await postJSON(path);
    if (status !== 200) return refused($("logout-message"), status, body);
    await showAccount();
    said(() => t(key));
  });
}

setUpPage(() => {
  for (const [box, text] of shown) box.textContent = text();
});
showAccount();
