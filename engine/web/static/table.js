// The table of cards on a seat's page: each card as a picture (SVG), and the boards of cards the
// ruleset's `layout:` describes (view.page.areas, docs/web.md): zones drawn as rows, piles and
// fans. A card is drawn by window.Cards.draw (cards.js, from the ruleset's `face:`) where the
// page has it, else as a plain box with its name and properties. Seats' colours come from
// view.page.seat_colours. Plain JavaScript; every text is set as text, colours as SVG attributes
// or CSS custom properties (the page's Content-Security-Policy allows no inline style).
"use strict";

const TABLE_SVG = "http://www.w3.org/2000/svg";
const BOX = { width: 78, height: 108 }; // the plain box of a card without a face, in pixels
const BOX_LINES = 7; // the properties a plain box has room for

function tableSvg(tag, attrs, ...children) {
  const node = document.createElementNS(TABLE_SVG, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
}

function tableText(attrs, text) {
  const node = tableSvg("text", attrs);
  node.textContent = text;
  return node;
}

// Words broken into lines of at most `width` characters.
function wrapped(text, width) {
  const lines = [];
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word.length > width ? `${word.slice(0, width - 1)}…` : word);
  }
  return lines;
}

// A card as a plain SVG box: its name, then the properties its name does not already say.
function plainCard(c, shown) {
  const hidden = Boolean(c.hidden);
  const name = hidden ? c.label || "face down" : c.label || "?";
  const lines = wrapped(name, 10).slice(0, 3);
  const svg = tableSvg("svg", { class: "card-face plain", width: BOX.width, height: BOX.height,
    viewBox: `0 0 ${BOX.width} ${BOX.height}`, role: "img", "aria-label": name });
  svg.append(tableSvg("rect", { x: 1, y: 1, width: BOX.width - 2, height: BOX.height - 2, rx: 7,
    class: hidden ? "box back" : "box" }));
  lines.forEach((line, i) => svg.append(tableText({ x: 6, y: 15 + i * 12, class: "box-name" }, line)));
  shown.slice(0, BOX_LINES - lines.length).forEach((line, i) =>
    svg.append(tableText({ x: 6, y: 20 + (lines.length + i) * 11, class: "box-prop" }, line.slice(0, 15))));
  return svg;
}

// The picture of one card: the ruleset's face where cards.js is loaded, else the plain box.
function cardPicture(c, shown) {
  if (window.Cards && typeof window.Cards.draw === "function") {
    try {
      return window.Cards.draw(c, window.cardFaces);
    } catch (e) {
      console.warn("cards.js could not draw a card:", e);
    }
  }
  return plainCard(c, shown);
}

// A pile: its top card and how many; cards.js draws it where it is loaded.
function pilePicture(cards) {
  if (window.Cards && typeof window.Cards.counted === "function") {
    try {
      return window.Cards.counted(cards, window.cardFaces);
    } catch (e) {
      console.warn("cards.js could not draw a pile:", e);
    }
  }
  const top = cards[cards.length - 1];
  const wrap = document.createElement("div");
  wrap.className = "pile-of";
  const count = document.createElement("span");
  count.className = "pile-count";
  count.textContent = `${cards.length}`;
  wrap.append(cardPicture(top, []), count);
  return wrap;
}

// The seats' colours of the ruleset (or the page's defaults), as the CSS properties --seat-N.
function seatColours(v) {
  const colours = (v.page && v.page.seat_colours) || [];
  colours.forEach((colour, i) => document.documentElement.style.setProperty(`--seat-${i + 1}`, colour));
}

// The zones the layout puts on boards of cards (those of `yours: false` boards: not the seat's own).
function zonesOnAreas(v) {
  const on = new Map();
  for (const area of (v.page && v.page.areas) || []) for (const name of area.zones) on.set(name, area);
  return on;
}

function onArea(z, areas) {
  const area = areas.get(z.name);
  return Boolean(area) && (!z.mine || area.yours !== false);
}

// The ruleset's boards of cards: each a heading and a row for each key of its family (a player,
// a company...), that key's zones side by side; an empty row says so.
function cardAreas(v, cardNode) {
  const areas = zonesOnAreas(v);
  return ((v.page && v.page.areas) || []).map((area) => {
    const rows = new Map(); // a key (or "" for a zone of the table) -> its zones, in the area's order
    for (const z of v.zones) {
      if (!z.display || !area.zones.includes(z.name) || !onArea(z, areas)) continue;
      const key = z.key === null || z.key === undefined ? "" : String(z.key);
      if (!rows.has(key)) rows.set(key, []);
      rows.get(key).push(z);
    }
    const drawn = [...rows].map(([key, list]) => {
      list.sort((a, b) => area.zones.indexOf(a.name) - area.zones.indexOf(b.name));
      const cards = list.flatMap((z) => z.cards);
      const count = list.reduce((n, z) => n + z.count, 0);
      const heading = el("div", { class: "row-label" },
        key ? `${list[0].mine ? `${key} (you)` : key} (${count})` : `${count} card${count === 1 ? "" : "s"}`);
      return el("div", { class: `area-row as-${area.as}`, "data-zone": list.map((z) => z.name).join(" ") },
        heading, lay(area.as, cards, count, cardNode));
    });
    const anything = [...rows.values()].some((list) => list.some((z) => z.count > 0));
    return el("section", { class: `area as-${area.as}`, "data-area": area.title },
      el("h2", {}, area.title), anything ? el("div", { class: "area-rows" }, drawn) : el("div", { class: "empty" }, "none yet"));
  });
}

// Cards as the layout says: a row in order, a fan (overlapping) or a pile (the top card and a count).
function lay(as, cards, count, cardNode) {
  if (!cards.length) return el("div", { class: "empty" }, count ? `${count} unseen` : "empty");
  if (as === "pile") return el("div", { class: "cards pile-cards" }, pilePicture(cards));
  return el("div", { class: as === "fan" ? "cards fan" : "cards" }, cards.map((c) => cardNode(c)));
}

// What a board's colours and badges mean (the ruleset's `key:` of the board), beside its picture.
function boardKey(v, board) {
  const entries = ((v.page && v.page.keys) || {})[board] || [];
  if (!entries.length) return null;
  return el("ul", { class: "board-key", "aria-label": `key of ${board}` }, entries.map((e) => {
    const mark = tableSvg("svg", { width: 16, height: 16, viewBox: "0 0 16 16", class: "key-mark" });
    if (e.colour) mark.append(tableSvg("rect", { x: 1, y: 1, width: 14, height: 14, rx: 2, fill: e.colour, class: "key-swatch" }));
    else mark.append(tableSvg("circle", { cx: 8, cy: 8, r: 7, class: "badge" }), tableText({ x: 8, y: 11.5, class: "badge-text" }, e.badge));
    return el("li", {}, mark, ` ${e.means}`);
  }));
}
