// dom.ts: a small element builder, so the screens read as the tree they draw. Text goes
// in as text nodes (never as HTML): names, card texts and prompts come from other players
// and from card scripts.
type Attrs = Record<string, string | number | boolean | EventListener | undefined>;
type Child = Node | string | number | null | undefined | false | Child[];

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = String(v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

// Replace the contents of parent with nodes.
export function show(parent: HTMLElement, ...nodes: Child[]): void {
  parent.replaceChildren();
  append(parent, nodes);
}

// A stable hue for a word (a card type): every game gets colours without a table.
export function hue(word: string): number {
  let x = 7;
  for (const ch of word) x = (x * 31 + ch.charCodeAt(0)) % 360;
  return x;
}
