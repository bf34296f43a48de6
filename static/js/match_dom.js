// Small DOM helpers of the match page (match.js and its parts) and the replay (replay.js).

export const byId = (id) => document.getElementById(id);

export function show(node, visible) {
  if (node) node.hidden = !visible;
}

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
