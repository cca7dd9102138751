// Cards drawn as cards: a view's card (its face up, or its back) as an SVG element, from the
// face description the server sends with the view (`faces`: engine/rules/faces.py), shape for
// shape as `engine print` draws it (engine/rules/cardsvg.py). It draws nothing the view does
// not give: a card's drawing is found by its id (face up) or by the back it shows (face down).
//   Cards.draw(card, faces)     -> an <svg> element
//   Cards.counted(cards, faces) -> an element: the top (last) card of a pile and how many there are
// Text is always set as text, never as HTML.
"use strict";

(function () {
  const NS = "http://www.w3.org/2000/svg";
  const SCALE = 1.35; // px on the page for a mm of the card
  const FONT = "Helvetica, Arial, sans-serif";
  const PAPER = "#fbf8f0";

  function svgEl(tag, attrs, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(name.replace(/_/g, "-"), String(value));
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  function text(x, y, words, size, fill, anchor, bold) {
    const node = svgEl("text", { x, y, font_size: size, font_family: FONT, fill, text_anchor: anchor || "middle",
      font_weight: bold ? "bold" : null });
    node.textContent = words;
    return node;
  }

  // A property's value as a key, as engine/rules/faces.py `key` writes it.
  function keyOf(value) {
    if (value === true) return "true";
    if (value === false) return "false";
    return String(value);
  }

  // What tells a face-down card's drawing from another's: faces.py `back_key`.
  function backKey(card) {
    return Object.keys(card).filter((k) => k !== "hidden" && k !== "label").sort()
      .map((k) => `${k}=${keyOf(card[k])}`).join("|");
  }

  // A card's face description: the server's, else a plain one from what the card says.
  function describe(card, faces) {
    const f = faces || {};
    const found = card.hidden ? (f.backs || {})[backKey(card)] : (f.ids || {})[String(card.id)];
    if (found) return card.hidden && card.label ? { ...found, label: card.label } : found;
    const title = card.hidden ? "" : String(card.label || "");
    return { w: 63, h: 88, hidden: !!card.hidden, colour: card.hidden ? "#44546a" : "#5b7db1",
      ink: "#ffffff", edge: "#2e3f5c", title, corners: {}, icons: [], lines: [], text: card.text || "",
      text_lines: [], text_size: 2.6, text_box: [0, 0, 0, 0], label: String(card.label || ""),
      pattern: "diamonds", tip: card.hidden ? card.label || "face down" : [title, card.text || ""].join("\n").trim() };
  }

  function icon(drawn, x, y, size, colour, edge) {
    const [vx, vy, vw, vh] = drawn.view.split(" ").map(Number);
    const g = svgEl("g", { transform: `translate(${x},${y}) scale(${size / Math.max(vw, vh)}) translate(${-vx},${-vy})` });
    for (const s of drawn.shapes) {
      const attrs = {};
      for (const [k, v] of Object.entries(s)) if (!["tag", "fill", "stroke"].includes(k)) attrs[k] = v;
      attrs.fill = s.fill === undefined || s.fill === null ? colour : s.fill;
      attrs.stroke = s.stroke === undefined ? "none" : s.stroke === null ? edge : s.stroke;
      attrs.stroke_width = 1.5;
      g.append(svgEl(s.tag, attrs));
    }
    return g;
  }

  function front(d, root) {
    const { w, h, colour, ink, edge } = d;
    const band = h * 0.17;
    root.append(svgEl("rect", { x: 0.3, y: 0.3, width: w - 0.6, height: h - 0.6, rx: 3, fill: PAPER, stroke: edge, stroke_width: 0.6 }));
    root.append(svgEl("rect", { x: 1.5, y: 1.5, width: w - 3, height: band, rx: 2, fill: colour }));
    const titleSize = Math.max(2.2, Math.min(4.0, ((w - 22) / Math.max(1, d.title.length)) * 1.9));
    root.append(text(w / 2, 1.5 + band / 2 + titleSize * 0.35, d.title, titleSize, ink, "middle", true));
    const top = 1.5 + band + 3;
    const size = Math.min(10, (w - 10) / Math.max(1, d.icons.length) - 1);
    const row = d.icons.length * (size + 1) - 1;
    d.icons.forEach((drawn, i) => root.append(icon(drawn, (w - row) / 2 + i * (size + 1), top, size, colour, edge)));
    let y = top + (d.icons.length ? size + 3 : 2);
    for (const line of d.lines) {
      root.append(text(w / 2, y + 2.5, line, 2.8, "#222222"));
      y += 3.6;
    }
    if (d.text_lines.length) {
      const [bx, by, bw, bh] = d.text_box;
      root.append(svgEl("rect", { x: bx, y: by, width: bw, height: bh, rx: 1.5, fill: "#ffffff", stroke: colour, stroke_width: 0.4 }));
      d.text_lines.forEach((line, i) =>
        root.append(text(bx + 1.5, by + 1 + d.text_size * (1.2 * i + 1), line, d.text_size, "#222222", "start")));
    }
    for (const [corner, figure] of Object.entries(d.corners)) {
      const cx = corner.endsWith("left") ? 6.5 : w - 6.5;
      const cy = corner.startsWith("top") ? 6.5 : h - 6.5;
      root.append(svgEl("circle", { cx, cy, r: 5, fill: "#ffffff", stroke: edge, stroke_width: 0.6 }));
      if (figure.icons.length) root.append(icon(figure.icons[0], cx - 3, cy - 4.6, 3.2, colour, edge));
      const fs = figure.text.length <= 2 ? 4.2 : Math.max(2.2, 8.4 / figure.text.length);
      root.append(text(cx, cy + fs * 0.35 + (figure.icons.length ? 1.2 : 0), figure.text, fs, "#111111", "middle", true));
    }
  }

  function pattern(kind, w, h, ink) {
    const faint = { stroke: ink, stroke_opacity: 0.18, stroke_width: 0.6, fill: "none" };
    const out = [];
    if (kind === "stripes") {
      for (let c = -Math.floor(h); c < w; c += 4) {
        const x1 = Math.max(3, c + 3), x2 = Math.min(w - 3, c + h - 3);
        if (x1 < x2) out.push(svgEl("line", { x1, y1: x1 - c, x2, y2: x2 - c, ...faint }));
      }
    } else if (kind === "grid") {
      for (let x = 6; x < Math.floor(w) - 3; x += 5) out.push(svgEl("line", { x1: x, y1: 3, x2: x, y2: h - 3, ...faint }));
      for (let y = 6; y < Math.floor(h) - 3; y += 5) out.push(svgEl("line", { x1: 3, y1: y, x2: w - 3, y2: y, ...faint }));
    } else if (kind === "dots") {
      for (let x = 6; x < Math.floor(w) - 3; x += 5) {
        for (let y = 6; y < Math.floor(h) - 3; y += 5) out.push(svgEl("circle", { cx: x, cy: y, r: 0.7, fill: ink, fill_opacity: 0.2 }));
      }
    } else if (kind === "diamonds") {
      for (let x = 7; x < Math.floor(w) - 4; x += 6) {
        for (let y = 7; y < Math.floor(h) - 4; y += 6) out.push(svgEl("path", { d: `M${x} ${y - 3}l3 3-3 3-3-3z`, ...faint }));
      }
    }
    return out;
  }

  function back(d, root) {
    const { w, h, colour, ink, edge } = d;
    root.append(svgEl("rect", { x: 0.3, y: 0.3, width: w - 0.6, height: h - 0.6, rx: 3, fill: colour, stroke: edge, stroke_width: 0.6 }));
    root.append(...pattern(d.pattern || "plain", w, h, ink));
    root.append(svgEl("rect", { x: 3, y: 3, width: w - 6, height: h - 6, rx: 2, fill: "none", stroke: ink, stroke_width: 0.5, stroke_opacity: 0.6 }));
    const lines = [d.title, ...d.lines, d.label].filter((t) => t);
    lines.forEach((line, i) => {
      const y = h / 2 + (i - (lines.length - 1) / 2) * 6;
      root.append(svgEl("rect", { x: 6, y: y - 4, width: w - 12, height: 5.6, rx: 1.5, fill: colour, fill_opacity: 0.85 }));
      root.append(text(w / 2, y + 0.6, line, i === 0 ? 3.6 : 2.8, ink, "middle", i === 0));
    });
  }

  function draw(card, faces) {
    const d = describe(card, faces);
    const root = svgEl("svg", { class: "card-face", width: (d.w * SCALE).toFixed(1), height: (d.h * SCALE).toFixed(1),
      viewBox: `0 0 ${d.w} ${d.h}`, role: "img", "aria-label": d.tip.split("\n")[0] || "card" });
    const tip = svgEl("title");
    tip.textContent = d.tip;
    root.append(tip);
    if (d.hidden) back(d, root);
    else front(d, root);
    return root;
  }

  // A pile: its top card (the last of the list), with how many cards it holds on a badge.
  function counted(cards, faces) {
    const node = document.createElement("div");
    node.className = "card-pile";
    if (!cards.length) return node;
    const top = draw(cards[cards.length - 1], faces);
    const badge = document.createElement("span");
    badge.className = "card-count";
    badge.textContent = String(cards.length);
    node.append(top, badge);
    node.title = `${cards.length} card${cards.length === 1 ? "" : "s"}`;
    return node;
  }

  window.Cards = { draw, counted };
})();
