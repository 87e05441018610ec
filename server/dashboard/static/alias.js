/* Dictionary form: phrase → exact objects, written by the server into dictionary.json. */
"use strict";
(async () => {
  const { el, api, getJson, params, url, session, configSelect } = V8;
  const p = params();
  document.getElementById("csrf").value = session.csrf;
  document.getElementById("csrf2").value = session.csrf;
  document.getElementById("phrase").value = (p.get("phrase") || "").slice(0, 200);
  if (p.get("target")) document.getElementById("targets").value = p.get("target").slice(0, 300);
  const info = await getJson("/ui/dictionary");
  const configs = info.configs || [];
  const chosen = p.get("config") || configs[0] || "";
  const select = configSelect(configs, chosen, { id: "config", required: true });
  document.getElementById("config-slot").replaceChildren(select);

  const access = document.getElementById("access");
  if (!info.admin_enabled) {
    access.replaceChildren(el("p", { class: "message error", text:
      "На этом сервере не задан ADMIN_TOKEN: запись в словарь с панели выключена. Изменяйте файл словаря и используйте v8atlas dict." }));
  } else if (!info.is_admin) {
    access.replaceChildren(el("p", { class: "message info" },
      "Сохранять синонимы может только администратор. ",
      el("a", { href: url("/login", { next: location.pathname + location.search }), text: "Войти с токеном администратора" }), "."));
  }
  if (info.problem) access.append(el("p", { class: "message error", text: info.problem }));
  if (info.dictionary) document.getElementById("dict-path").textContent = info.dictionary;
  if (info.sources) document.getElementById("compile-cmd").textContent =
    `v8atlas compile ${info.sources.join(" ")} --out <папка пакетов>`;

  renderExisting();
  select.addEventListener("change", renderExisting);
  const targets = document.getElementById("targets");
  targets.addEventListener("change", checkTargets);
  if (targets.value) checkTargets();

  /** The selected configuration's aliases, then the global ones (no config: they apply to all). */
  function renderExisting() {
    const box = document.getElementById("existing");
    const all = info.aliases || {};
    const rows = [];
    for (const [phrase, names] of Object.entries(all[select.value] || {})) rows.push([phrase, names, select.value]);
    if (select.value !== "*") for (const [phrase, names] of Object.entries(all["*"] || {})) rows.push([phrase, names, "*"]);
    if (!rows.length) {
      box.replaceChildren(el("p", { class: "hint", text: `Для конфигурации ${select.value || "?"} синонимов пока нет.` }));
      return;
    }
    box.replaceChildren(el("table", { class: "grid", "data-testid": "existing-aliases" },
      el("thead", {}, el("tr", {}, el("th", { text: "Фраза" }), el("th", { text: "Объекты" }),
        el("th", { text: "Где действует" }), info.is_admin ? el("th") : null)),
      el("tbody", {}, rows.map(([phrase, names, scope]) => el("tr", { "data-scope": scope },
        el("td", {}, el("a", { href: url("/search", { q: phrase, config: select.value }), text: phrase })),
        el("td", {}, [].concat(names).map((n) => el("div", {}, el("a", { href: url("/card", { name: n, config: select.value }), text: n })))),
        el("td", { class: scope === "*" ? "scope-global" : "", text: scope === "*" ? "все конфигурации" : scope }),
        info.is_admin ? el("td", {}, removeForm(phrase, scope)) : null)))));
  }

  function removeForm(phrase, config) {
    return el("form", { method: "post", action: "/alias/remove", class: "inline-form" },
      el("input", { type: "hidden", name: "csrf", value: session.csrf }),
      el("input", { type: "hidden", name: "config", value: config }),
      el("input", { type: "hidden", name: "phrase", value: phrase }),
      el("button", { type: "submit", class: "link-button danger", text: "удалить" }));
  }

  /** Tell before saving whether each name resolves to an object (the compiler checks again). */
  async function checkTargets() {
    const box = document.getElementById("target-check");
    const names = targets.value.split("\n").map((s) => s.trim()).filter(Boolean).slice(0, 20);
    box.replaceChildren();
    for (const n of names) {
      const res = await api("get_object", { name: n, config: select.value, detail: "brief" });
      box.append(el("div", { class: res.outcome === "found" ? "ok-text" : "error-text",
        text: `${n}: ${res.outcome === "found" ? "найден" : res.outcome === "ambiguous" ? "неоднозначно — уточните" : "не найден в конфигурации"}` }));
    }
  }
})();
