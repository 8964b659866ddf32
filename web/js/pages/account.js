// The account page (/account): register, log in, log out (here or everywhere), change the
// password, delete the account. Every answer's message is the server's (docs/accounts.md).
import { getJSON, postJSON } from "./api.js";

const $ = (id) => document.getElementById(id);

function say(text, ok = false) {
  const m = $("message");
  m.textContent = text;
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
      say(body.message || `Refused (${status}).`);
      return;
    }
    e.target.reset();
    say(done(body), true);
    await show();
  });
}

form("login-form", "/api/account/login", (b) => `Welcome back, ${b.username}.`);
form("register-form", "/api/account/register", (b) => `Welcome, ${b.username}: your account is made.`);
form("password-form", "/api/account/password", () => "Password changed; your other logins are ended.");
form("delete-form", "/api/account/delete", () => "Your account is deleted.");

for (const [id, path, text] of [
  ["logout", "/api/account/logout", "Logged out."],
  ["logout-all", "/api/account/logout-all", "Logged out everywhere."],
]) {
  $(id).addEventListener("click", async () => {
    const { status, body } = await postJSON(path);
    say(status === 200 ? text : body.message || `Refused (${status}).`, status === 200);
    await show();
  });
}

show();
