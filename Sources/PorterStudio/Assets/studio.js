// Porter Studio: the page over porter studio's JSON API (the Studio guide). Plain JavaScript, no build step.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const PAGE = 50;
const state = {
  info: null, classes: {}, current: null, offset: 0, total: 0, sort: null, descending: false, query: "",
  history: [], inTransaction: false, fileStamp: null, realmFile: false, unsaved: 0, writing: false,
};

const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

async function api(path, options) {
  const response = await fetch("/api/" + path, {
    ...(options || {}), headers: { "X-Porter-Token": token, "Content-Type": "application/json" },
  });
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function showMessage(text, ok) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
  m.className = ok ? "message ok" : "message";
}

function formatSize(n) {
  if (n < 1024) return n + " B";
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + " KiB";
  return (n / 1024 / 1024).toFixed(1) + " MiB";
}

// ---- Values -------------------------------------------------------------------------------------

function renderValue(v) {
  if (v === null || v === undefined) return el("span", { class: "null" }, "null");
  const wrap = el("span", { class: "value" });
  if (v.mixed) wrap.append(el("span", { class: "mixed-type" }, v.type));
  switch (v.type) {
    case "data":
      wrap.append(`${v.size} bytes `, el("span", { class: "hex" }, v.hex + (v.size > v.hex.length / 2 ? "…" : "")));
      break;
    case "link":
      wrap.append(el("a", { class: "link", dataset: { class: v.class, key: v.key },
        onclick: (e) => { e.preventDefault(); openObject(v.class, v.key); } }, `${v.class}(${v.key})`));
      break;
    case "list": case "set": case "dictionary":
      wrap.append(renderCollection(v));
      break;
    case "object":
      wrap.append(renderEmbedded(v));
      break;
    default:
      wrap.append(v.text);
  }
  return wrap;
}

function renderCollection(v) {
  const box = el("span", { class: "collection" });
  const label = `${v.type} (${v.count})`;
  if (v.count === 0) { box.append(el("span", { class: "null" }, label)); return box; }
  const list = el("div", { class: "nested", hidden: "" });
  for (const item of v.items) {
    if (v.type === "dictionary") list.append(el("div", {}, el("span", { class: "field-name" }, item.key + ":"), renderValue(item.value)));
    else list.append(el("div", {}, renderValue(item)));
  }
  if (v.items.length < v.count) list.append(el("div", { class: "null" }, `… ${v.count - v.items.length} more (open the object)`));
  const toggle = el("button", { type: "button", class: "toggle expand", onclick: () => {
    list.hidden = !list.hidden; toggle.textContent = (list.hidden ? "▸ " : "▾ ") + label;
  } }, "▸ " + label);
  box.append(toggle, list);
  return box;
}

function renderEmbedded(v) {
  const box = el("span", { class: "embedded" });
  const fields = el("div", { class: "nested embedded-object" });
  for (const [name, value] of Object.entries(v.fields)) {
    fields.append(el("div", {}, el("span", { class: "field-name" }, name + ":"), renderValue(value)));
  }
  box.append(el("span", { class: "badge" }, v.class || "embedded"), fields);
  return box;
}

// ---- Views --------------------------------------------------------------------------------------

function show(view) {
  for (const id of ["welcome-view", "class-view", "object-view", "schema-view"]) $(id).hidden = id !== view;
}

function currentView() {
  if (!$("object-view").hidden) return { kind: "object", className: state.objectClass, key: state.objectKey };
  if (!$("class-view").hidden) return { kind: "class", className: state.current, offset: state.offset,
    sort: state.sort, descending: state.descending, query: state.query };
  if (!$("schema-view").hidden) return { kind: "schema" };
  return { kind: "welcome" };
}

function remember() { state.history.push(currentView()); updateBack(); }
function updateBack() { $("back").hidden = state.history.length === 0; }

async function goBack() {
  const view = state.history.pop();
  updateBack();
  if (!view) return;
  if (view.kind === "object") await showObject(view.className, view.key);
  else if (view.kind === "class") {
    Object.assign(state, { current: view.className, offset: view.offset, sort: view.sort,
      descending: view.descending, query: view.query });
    await showClass();
  } else if (view.kind === "schema") showSchema();
  else show("welcome-view");
}

async function loadInfo() {
  const info = await api("info");
  state.info = info;
  state.classes = {};
  for (const c of info.classes) state.classes[c.name] = c;
  const parts = [info.path, info.kind === "realm" ? `Realm file, format ${info.fileFormat}` : "Porter database",
    `schema version ${info.schemaVersion ?? "none"}`, formatSize(info.fileSize)];
  if (info.encrypted) parts.push("encrypted");
  if (!info.writable) parts.push("read-only");
  if (info.workingCopy) parts.push("editing a working copy: Save writes the file");
  $("file-info").textContent = parts.join(" · ");
  $("write-controls").hidden = !info.writable;
  const list = $("classes");
  list.replaceChildren();
  for (const c of info.classes) {
    list.append(el("li", { class: "class-item", dataset: { class: c.name }, onclick: () => openClass(c.name) },
      el("span", {}, c.name, c.embedded ? el("span", { class: "badge" }, "embedded") : null),
      el("span", { class: "n" }, c.count.toLocaleString("en-US"))));
  }
  const table = $("class-table");
  table.replaceChildren(el("tr", {}, el("th", {}, "Class"), el("th", {}, "Objects"), el("th", {}, "Primary key"),
    el("th", {}, "Properties")));
  for (const c of info.classes) {
    table.append(el("tr", {},
      el("td", {}, el("a", { class: "link", onclick: () => openClass(c.name) }, c.name),
        c.embedded ? el("span", { class: "badge" }, "embedded") : null),
      el("td", {}, c.count.toLocaleString("en-US")), el("td", {}, c.primaryKey || "—"),
      el("td", {}, `${c.properties.length} — ` + c.properties.slice(0, 8).map((p) => `${p.name}: ${p.type}`).join(", ")
        + (c.properties.length > 8 ? ", …" : ""))));
  }
}

async function openClass(name) {
  remember();
  Object.assign(state, { current: name, offset: 0, sort: null, descending: false, query: "" });
  $("query").value = "";
  await showClass();
}

function pagePath() {
  // encodeURIComponent, not URLSearchParams: the server reads '+' as a plus sign, not a space.
  const params = { offset: state.offset, limit: PAGE };
  if (state.sort) { params.sort = state.sort; params.descending = state.descending; }
  if (state.query) params.query = state.query;
  const text = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  return `classes/${encodeURIComponent(state.current)}/objects?${text}`;
}

async function showClass() {
  show("class-view");
  for (const item of document.querySelectorAll(".class-item")) item.classList.toggle("active", item.dataset.class === state.current);
  $("class-title").textContent = state.current;
  $("query").value = state.query;
  const cls = state.classes[state.current];
  $("export").hidden = cls && cls.embedded;
  $("export-format").hidden = cls && cls.embedded;
  $("add-object").hidden = !state.inTransaction;
  updateExport();
  let page;
  try {
    page = await api(pagePath());
  } catch (error) {
    showMessage(error.message);
    $("objects").replaceChildren();
    $("count").textContent = "";
    return;
  }
  showMessage("");
  state.total = page.total;
  const shown = page.properties.filter((p) => p.baseType !== "linkingObjects");
  const head = el("tr", {}, el("th", {}, "key"));
  for (const p of shown) {
    const arrow = state.sort === p.name ? (state.descending ? " ▼" : " ▲") : "";
    head.append(el("th", { class: p.sortable ? "sortable" : "", dataset: { prop: p.name },
      onclick: p.sortable ? () => sortBy(p.name) : null },
      p.name, p.primaryKey ? el("span", { class: "badge pk" }, "pk") : null, el("span", { class: "arrow" }, arrow), el("span", { class: "type" }, p.type)));
  }
  const table = $("objects");
  table.replaceChildren(el("thead", {}, head));
  const body = el("tbody");
  for (const object of page.objects) {
    const row = el("tr", { dataset: { key: object.key } },
      el("td", { class: "key" }, el("a", { class: "link object-key", onclick: () => openObject(state.current, object.key) },
        object.key)));
    for (const p of shown) row.append(el("td", { dataset: { prop: p.name } }, renderValue(object.values[p.name])));
    body.append(row);
  }
  table.append(body);
  const what = state.query ? "matching" : "objects";
  $("count").textContent = `${page.total.toLocaleString("en-US")} ${what}`;
  const last = Math.min(page.total, state.offset + page.objects.length);
  $("range").textContent = page.total === 0 ? "0" : `${state.offset + 1}–${last} of ${page.total.toLocaleString("en-US")}`;
  $("prev").disabled = state.offset === 0;
  $("next").disabled = last >= page.total;
}

function updateExport() {
  // With a query the export holds the matching objects, in the table's order.
  const params = { format: $("export-format").value, token };
  if (state.query) params.query = state.query;
  if (state.query && state.sort) { params.sort = state.sort; params.descending = state.descending; }
  const text = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  $("export").href = `/api/classes/${encodeURIComponent(state.current)}/export?${text}`;
  $("export").textContent = state.query ? "Export query result" : "Export class";
  // A Realm file holds whole classes: the server refuses a query result in it.
  const refused = Boolean(state.query) && params.format === "realm";
  $("export").classList.toggle("disabled", refused);
  $("export").title = refused ? "A Realm file holds whole classes: clear the query or choose another format" : "";
  if (refused) $("export").removeAttribute("href");
}

async function sortBy(name) {
  if (state.sort === name) state.descending = !state.descending;
  else { state.sort = name; state.descending = false; }
  state.offset = 0;
  await showClass();
}

async function openObject(className, key) {
  remember();
  await showObject(className, key);
}

async function showObject(className, key) {
  let object;
  try {
    object = await api(`classes/${encodeURIComponent(className)}/objects/${key}`);
  } catch (error) {
    showMessage(error.message);
    return;
  }
  showMessage("");
  state.objectClass = className;
  state.objectKey = key;
  show("object-view");
  $("object-title").textContent = `${className}(${key})`;
  $("delete-object").hidden = !state.inTransaction;
  const table = $("object-values");
  table.replaceChildren();
  for (const p of object.properties.filter((p) => p.baseType !== "linkingObjects")) {
    const cell = el("td", { dataset: { prop: p.name } }, renderValue(object.values[p.name]));
    const editable = state.inTransaction && p.collection === "none" && p.baseType !== "object" && !p.primaryKey;
    const row = el("tr", {}, el("th", {}, p.name, el("span", { class: "type" }, p.type)), cell);
    if (editable) {
      row.append(el("td", {}, el("button", { type: "button", class: "edit", dataset: { prop: p.name },
        onclick: () => startEdit(cell, p, object.values[p.name]) }, "Edit")));
    }
    table.append(row);
  }
  const links = $("linking-objects");
  links.replaceChildren();
  if (object.linkingObjects.length === 0) links.append(el("li", { class: "null" }, "none"));
  for (const link of object.linkingObjects) {
    links.append(el("li", {}, el("a", { class: "link", onclick: () => openObject(link.class, link.key) },
      `${link.class}(${link.key})`), ` through ${link.class}.${link.property}`));
  }
}

function startEdit(cell, property, value) {
  const text = value === null || value === undefined ? "" : value.text ?? (value.type === "data" ? "" : "");
  const input = el("input", { class: "edit-input", value: text, "aria-label": property.name });
  const save = el("button", { type: "button", class: "save-edit", onclick: async () => {
    const raw = input.value === "" && property.optional ? null : input.value;
    try {
      await api(`classes/${encodeURIComponent(state.objectClass)}/objects/${state.objectKey}/set`,
        { method: "POST", body: JSON.stringify({ property: property.name, value: raw }) });
      await showObject(state.objectClass, state.objectKey);
      showMessage(`${state.objectClass}.${property.name} set (not committed yet)`, true);
    } catch (error) { showMessage(error.message); }
  } }, "Save");
  cell.classList.add("editing");
  cell.replaceChildren(input, save);
  input.focus();
}

// ---- Writes -------------------------------------------------------------------------------------

async function transaction(action) {
  // The studio's own commit or Save changes the file: a poll meanwhile must not announce it.
  state.writing = true;
  try {
    const result = await api(`write/${action}`, { method: "POST", body: "{}" });
    applyWriteState(result);
    const saved = result.backup && result.saves === 1 ? ` (the old file kept as ${result.backup})` : "";
    const done = { begin: "Write transaction open: edits are kept until Commit or Cancel",
      commit: state.realmFile ? "Committed to the working copy: Save writes the Realm file" : "Committed",
      cancel: "Cancelled: every change since Begin undone", save: `Saved: ${state.info.path} written${saved}` };
    // The studio's own commit changes the file: not a change to announce.
    state.fileStamp = null;
    await pollFile();
    await loadInfo();
    await refreshView();
    showMessage(done[action], true);
  } catch (error) { showMessage(error.message); } finally { state.writing = false; }
}

function applyWriteState(result) {
  state.inTransaction = result.inTransaction;
  state.realmFile = !!result.realmFile;
  state.unsaved = result.unsaved || 0;
  updateTransaction();
}

function updateTransaction() {
  // A Realm file: edits go to a working copy; Save writes the file once nothing is open.
  $("save-controls").hidden = !state.realmFile;
  $("save").disabled = state.inTransaction || state.unsaved === 0;
  $("save-state").textContent = state.unsaved > 0 ? `unsaved: ${state.unsaved} commit(s)` : "saved";
  $("save-state").classList.toggle("unsaved", state.unsaved > 0);
  $("begin").disabled = state.inTransaction;
  $("commit").disabled = !state.inTransaction;
  $("cancel").disabled = !state.inTransaction;
  $("tx-state").textContent = state.inTransaction ? "write transaction open" : "read";
  $("tx-state").classList.toggle("open", state.inTransaction);
}

async function refreshView() {
  const view = currentView();
  if (view.kind === "object") await showObject(view.className, view.key);
  else if (view.kind === "class") await showClass();
}

async function addObject() {
  const cls = state.classes[state.current];
  const values = {};
  if (cls.primaryKey) {
    const pk = window.prompt(`${cls.primaryKey} of the new ${cls.name}`);
    if (pk === null) return;
    values[cls.primaryKey] = pk;
  }
  try {
    const object = await api(`classes/${encodeURIComponent(cls.name)}/create`,
      { method: "POST", body: JSON.stringify({ values }) });
    await openObject(cls.name, object.key);
  } catch (error) { showMessage(error.message); }
}

async function deleteObject() {
  try {
    await api(`classes/${encodeURIComponent(state.objectClass)}/objects/${state.objectKey}/delete`,
      { method: "POST", body: "{}" });
    const gone = `${state.objectClass}(${state.objectKey})`;
    state.history = state.history.filter((v) => !(v.kind === "object" && v.className === state.objectClass && v.key === state.objectKey));
    await goBack();
    showMessage(`${gone} deleted (not committed yet)`, true);
  } catch (error) { showMessage(error.message); }
}

// ---- Schema diagram -----------------------------------------------------------------------------

function showSchema() {
  show("schema-view");
  const classes = state.info.classes;
  const SVG = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attrs, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const width = 230, row = 18, head = 26, gapX = 90, gapY = 50;
  const columns = Math.max(1, Math.min(4, Math.ceil(Math.sqrt(classes.length))));
  const boxes = {};
  const heights = classes.map((c) => head + row * c.properties.length + 8);
  const rowHeights = [];
  classes.forEach((c, i) => {
    const r = Math.floor(i / columns);
    rowHeights[r] = Math.max(rowHeights[r] || 0, heights[i]);
  });
  const rowTop = [];
  let y = 20;
  for (let r = 0; r < rowHeights.length; r++) { rowTop[r] = y; y += rowHeights[r] + gapY; }
  classes.forEach((c, i) => {
    const col = i % columns, r = Math.floor(i / columns);
    boxes[c.name] = { x: 20 + col * (width + gapX), y: rowTop[r], h: heights[i], cls: c };
  });
  const svg = svgEl("svg", { width: 40 + columns * (width + gapX), height: y, role: "img",
    "aria-label": "Schema diagram" });
  const defs = svgEl("defs", {});
  for (const [id, color] of [["arrow-link", "#2f5fd0"], ["arrow-embedded", "#8a4fc7"], ["arrow-backlink", "#7a8397"]]) {
    const marker = svgEl("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
      orient: "auto-start-reverse" });
    marker.append(svgEl("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: color }));
    defs.append(marker);
  }
  svg.append(defs);
  const edges = svgEl("g", {});
  svg.append(edges);
  for (const c of classes) {
    const b = boxes[c.name];
    const g = svgEl("g", { class: "class-box", "data-class": c.name });
    g.append(svgEl("rect", { x: b.x, y: b.y, width, height: b.h, rx: 6, fill: "#fff",
      stroke: c.embedded ? "#8a4fc7" : "#2f5fd0", "stroke-width": 1.5 }));
    g.append(svgEl("rect", { x: b.x, y: b.y, width, height: head, rx: 6, fill: c.embedded ? "#8a4fc7" : "#2f5fd0" }));
    g.append(svgEl("text", { x: b.x + 10, y: b.y + 17, fill: "#fff", "font-size": 13, "font-weight": 700 },
      c.name + (c.embedded ? " (embedded)" : "")));
    c.properties.forEach((p, i) => {
      const ty = b.y + head + 14 + i * row;
      g.append(svgEl("text", { x: b.x + 10, y: ty, "font-size": 12, fill: "#1d2330" },
        p.name + (p.primaryKey ? " (primary key)" : "")));
      g.append(svgEl("text", { x: b.x + width - 10, y: ty, "font-size": 11, fill: "#6a7385", "text-anchor": "end" },
        p.type.length > 24 ? p.type.slice(0, 23) + "…" : p.type));
      const target = p.objectType && boxes[p.objectType];
      if (!target) return;
      const kind = p.baseType === "linkingObjects" ? "backlink" : (target.cls.embedded ? "embedded" : "link");
      const color = { link: "#2f5fd0", embedded: "#8a4fc7", backlink: "#7a8397" }[kind];
      const sy = ty - 4;
      const toRight = target.x >= b.x;
      const sx = toRight ? b.x + width : b.x;
      const tx = target === b ? b.x + width : (target.x > b.x ? target.x : target.x + width);
      const tyy = target.y + head / 2;
      const bend = target === b ? 60 : Math.max(40, Math.abs(tx - sx) / 2);
      const c1 = sx + (toRight ? bend : -bend), c2 = tx + (target.x > b.x ? -bend : bend);
      edges.append(svgEl("path", { d: `M ${sx} ${sy} C ${c1} ${sy}, ${c2} ${tyy}, ${tx} ${tyy}`, fill: "none",
        stroke: color, "stroke-width": 1.6, "stroke-dasharray": kind === "backlink" ? "5 4" : "none",
        "marker-end": `url(#arrow-${kind})`, class: `edge ${kind}`, "data-from": c.name, "data-to": p.objectType }));
    });
    g.addEventListener("click", () => { remember(); Object.assign(state, { current: c.name, offset: 0, sort: null,
      descending: false, query: "" }); showClass(); });
    g.style.cursor = "pointer";
    svg.append(g);
  }
  $("schema").replaceChildren(svg);
}

// ---- File changes -------------------------------------------------------------------------------

async function pollFile() {
  try {
    const file = await api("file");
    const stamp = `${file.mtime}/${file.size}`;
    if (state.fileStamp === null) state.fileStamp = stamp;
    else if (stamp !== state.fileStamp && !state.inTransaction && !state.writing) $("banner").hidden = false;
  } catch (_) { /* the server is gone: the next poll tries again */ }
}

async function reloadAll() {
  $("banner").hidden = true;
  state.fileStamp = null;
  await pollFile();
  await loadInfo();
  await refreshView();
}

// ---- Start --------------------------------------------------------------------------------------

async function start() {
  $("back").addEventListener("click", goBack);
  $("object-back").addEventListener("click", goBack);
  $("show-schema").addEventListener("click", () => { remember(); showSchema(); });
  $("prev").addEventListener("click", () => { state.offset = Math.max(0, state.offset - PAGE); showClass(); });
  $("next").addEventListener("click", () => { state.offset += PAGE; showClass(); });
  $("query-form").addEventListener("submit", (e) => {
    e.preventDefault(); state.query = $("query").value.trim(); state.offset = 0; showClass();
  });
  $("clear-query").addEventListener("click", () => { state.query = ""; state.offset = 0; showClass(); });
  $("export-format").addEventListener("change", updateExport);
  $("begin").addEventListener("click", () => transaction("begin"));
  $("commit").addEventListener("click", () => transaction("commit"));
  $("cancel").addEventListener("click", () => transaction("cancel"));
  $("save").addEventListener("click", () => transaction("save"));
  window.addEventListener("beforeunload", (e) => { if (state.unsaved > 0) e.preventDefault(); });
  $("add-object").addEventListener("click", addObject);
  $("delete-object").addEventListener("click", deleteObject);
  $("reload").addEventListener("click", reloadAll);
  try {
    await loadInfo();
    if (state.info.writable) applyWriteState(await api("write"));
  } catch (error) { showMessage(error.message); return; }
  show("welcome-view");
  await pollFile();
  setInterval(pollFile, 2000);
}

start();
