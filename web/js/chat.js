// The chat box: room chat, and team chat in doubles. One instance moves between the
// waiting room and the match panel so the conversation stays in view.
import { el } from "./dom.js";
import { onLanguage, translatePage } from "./i18n.js";

const MAX_LINES = 200;

export class ChatBox {
  constructor(template, onSend) {
    this.root = template.content.firstElementChild.cloneNode(true);
    translatePage(this.root);
    onLanguage(() => translatePage(this.root)); // also while it is not on the page
    this.log = this.root.querySelector(".chat-log");
    this.tabs = this.root.querySelector(".chat-tabs");
    this.channel = "room";
    this.root.querySelector(".chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = e.target.elements.text;
      const text = input.value.trim();
      if (text) onSend(this.channel, text);
      input.value = "";
    });
    for (const b of this.tabs.querySelectorAll("button")) {
      b.addEventListener("click", () => this.setChannel(b.dataset.channel));
    }
  }

  mount(slot) {
    if (this.root.parentElement !== slot) slot.append(this.root);
  }

  setChannel(channel) {
    this.channel = channel;
    for (const b of this.tabs.querySelectorAll("button")) {
      b.classList.toggle("active", b.dataset.channel === channel);
    }
  }

  /** Team chat only for a seated doubles player. */
  setTeamChat(enabled) {
    this.tabs.hidden = !enabled;
    if (!enabled) this.setChannel("room");
  }

  clear() {
    this.log.replaceChildren();
  }

  /**
   * One line: a player's (`from`, `role`, `channel`) or the room's own (`system`).
   * @param {{from?: string, role?: string, text: string, channel?: string, system?: boolean}} line
   */
  add({ from, role, text, channel, system }) {
    const who = [el("span", { class: "from", text: from }), " "];
    if (role) who.push(el("span", { class: "role", text: `(${role})` }));
    const li = system
      ? el("li", { class: "system", text })
      : el("li", { class: channel === "team" ? "team" : "" }, ...who, ": ", document.createTextNode(text));
    if (channel === "team" && !system) li.prepend(el("span", { class: "badge", text: "team" }), " ");
    const atBottom = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    this.log.append(li);
    while (this.log.children.length > MAX_LINES) this.log.firstElementChild.remove();
    if (atBottom) this.log.scrollTop = this.log.scrollHeight;
  }
}
