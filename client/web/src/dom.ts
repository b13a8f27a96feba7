// dom.ts: a small element builder, so the screens read as the tree they draw, and `patch`,
// which brings the page to a newly built tree by reusing the nodes already there. Text
// goes in as text nodes (never as HTML): names, card texts and prompts come from other
// players and from card scripts.
//
// Why reuse: a screen is redrawn whenever a message arrives, and a press that starts on
// a button and ends on a new button that replaced it is no click (that is how clicks were
// lost to redraws). patch keeps a node whose place in the tree is the same (same tag, and
// the same `data-key` or id where the builder gave one), updating its attributes, text and
// handlers in place; only what is new is created and only what is gone is removed. So a
// button stays the same node, with its focus and its pointer press, across redraws.
// Handlers are not attached to nodes: `on*` attributes are kept in a table and one
// listener per event type on the document calls them, so moving a handler to the kept
// node is a table update.
type Handler = (e: Event) => void;
type Attrs = Record<string, string | number | boolean | Handler | undefined>;
export type Child = Node | string | number | null | undefined | false | Child[];

const handlers = new WeakMap<Node, Record<string, Handler>>();
const delegated = new Set<string>();

function delegate(type: string): void {
  if (delegated.has(type)) return;
  delegated.add(type);
  document.addEventListener(type, (e) => {
    for (let n = e.target as Node | null; n && n !== document; n = n.parentNode) {
      const f = handlers.get(n)?.[type];
      if (f) f(e);
      if (e.cancelBubble) return;
    }
  });
}

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") {
      const type = k.slice(2);
      delegate(type);
      handlers.set(el, { ...handlers.get(el), [type]: v });
    } else if (k === "class") el.className = String(v);
    else if (k === "style") el.style.cssText = String(v); // CSSOM: the page's CSP forbids style="" markup
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: Child[]): void {
  for (const c of flat(children)) el.append(c);
}

function flat(children: Child[], out: Node[] = []): Node[] {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flat(c, out);
    else out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return out;
}

function keyOf(n: Node): string {
  if (!(n instanceof Element)) return "";
  return n.getAttribute("data-key") ?? (n.id ? `#${n.id}` : "");
}

const same = (a: Node, b: Node) => a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);

// Make parent's children the nodes `next` describes, reusing parent's own where they match
// (by key, else the next unkeyed node of the same tag in order). The nodes of `next` that
// matched are left unused; an unkeyed node matches the next old unkeyed one of its tag.
export function patch(parent: Node, ...next: Child[]): void {
  const want = flat(next);
  const old = Array.from(parent.childNodes);
  const byKey = new Map<string, Node>();
  for (const o of old) {
    const k = keyOf(o);
    if (k && !byKey.has(k)) byKey.set(k, o);
  }
  const used = new Set<Node>();
  let cursor = 0;
  const result = want.map((n) => {
    const k = keyOf(n);
    let o: Node | undefined;
    if (k) o = byKey.get(k);
    else
      for (let j = cursor; j < old.length; j++)
        if (!used.has(old[j]) && same(old[j], n)) {
          o = old[j];
          cursor = j + 1;
          break;
        }
    if (!o || used.has(o) || !same(o, n)) return n;
    used.add(o);
    update(o, n);
    return o;
  });
  for (const o of old) if (!used.has(o)) parent.removeChild(o);
  result.forEach((n, i) => {
    const at = parent.childNodes[i];
    if (at !== n) parent.insertBefore(n, at ?? null);
  });
}

function update(o: Node, n: Node): void {
  if (!(o instanceof Element) || !(n instanceof Element)) {
    if (o.nodeValue !== n.nodeValue) o.nodeValue = n.nodeValue;
    return;
  }
  for (const a of Array.from(o.attributes)) if (!n.hasAttribute(a.name)) o.removeAttribute(a.name);
  for (const a of Array.from(n.attributes))
    if (a.name === "style") {
      const [os, ns] = [(o as HTMLElement).style, (n as HTMLElement).style];
      if (os.cssText !== ns.cssText) os.cssText = ns.cssText;
    } else if (o.getAttribute(a.name) !== a.value) o.setAttribute(a.name, a.value);
  const hs = handlers.get(n);
  if (hs) handlers.set(o, hs);
  else handlers.delete(o);
  // (An <input>'s typed text and a touched <select>'s choice are the player's: attributes
  // change only their defaults.)
  patch(o, Array.from(n.childNodes));
}

// A stable hue for a word (a card type): every game gets colours without a table.
export function hue(word: string): number {
  let x = 7;
  for (const ch of word) x = (x * 31 + ch.charCodeAt(0)) % 360;
  return x;
}
