// The account page (/account): register, log in, log out (here or everywhere), change the
// password, delete the account. A refusal's message is the server's, in English
// (docs/accounts.md); the rest is in the page's language.
import { t } from "../i18n.js";
import { getJSON, postJSON, setUpPage } from "./api.js";

const $ = (id) => document.getElementById(id);

let said = null; // the last message as a function, reworded on a change of language

function say(text, ok = false) {
  const m = $("message");
  said = typeof text === "function" ? text : null;
  m.textContent = said ? said() : text;
  m.dataset.ok = ok ? "1" : "";
  m.hidden = !text;
}

async function show() {
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
    const data = Object.fromEntries(new FormData(e.target).entries());
    const { status, body } = await postJSON(path, data);
    if (status !== 200) {
      say(body.message || t("acct.refused", { status }));
      return;
    }
    e.target.reset();
    say(done(body), true);
    await show();
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
    const { status, body } = await postJSON(path);
    say(status === 200 ? () => t(key) : body.message || t("acct.refused", { status }), status === 200);
    await show();
  });
}

setUpPage(() => {
  if (said) $("message").textContent = said();
});
show();
