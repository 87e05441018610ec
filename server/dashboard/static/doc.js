/* A corpus document: its parts as links, the text an agent receives from get_doc. */
"use strict";
(async () => {
  const { el, api, params, url, outcomeBadge, errorBox, agentText, setStatus } = V8;
  const p = params();
  const id = (p.get("id") || "").trim().slice(0, 500);
  const part = p.get("part") || "";
  document.getElementById("id").value = id;
  const body = document.getElementById("doc-body");
  if (!id) return;
  setStatus(body, "Загрузка…");
  const args = { id };
  if (/^\d+$/.test(part)) args.part = Number(part);
  const result = await api("get_doc", args);
  if (result.outcome === "error") { body.replaceChildren(errorBox(result, "Ошибка")); return; }
  const data = result.data || {};
  document.title = `${id} — v8atlas`;
  document.getElementById("doc-title").textContent = id;
  const parts = document.getElementById("parts");
  if (data.parts > 1) {
    parts.replaceChildren(el("span", { class: "switch-label", text: "Части:" }),
      el("a", { href: url("/doc", { id }), class: part === "" ? "active" : "", text: "весь документ" }),
      ...Array.from({ length: data.parts }, (_, i) => el("a", {
        href: url("/doc", { id, part: i }), class: String(i) === part ? "active" : "", text: String(i) })));
  }
  body.replaceChildren(
    el("p", { class: "result-head" }, outcomeBadge(result.outcome),
      data.corpus ? ` корпус ${data.corpus}` : "", data.note ? " · заметка проекта (не проверена по конфигурации)" : "",
      data.url ? el("a", { href: data.url, rel: "noopener", text: " · источник" }) : null),
    agentText(result.text || "", {}));
})();
