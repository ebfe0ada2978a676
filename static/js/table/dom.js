// Elements from a short description, and the JSON blocks the page carries (json_script).

export function readJson(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

// el("button", {className: "x", "data-key": "k", onclick: f, text: "Go"}, [children]):
// null, undefined and false attributes are left out, true ones are set empty.
export function el(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (name === "text") {
      node.textContent = value;
    } else if (name === "className") {
      node.className = value;
    } else if (name.startsWith("on")) {
      node.addEventListener(name.slice(2), value);
    } else {
      node.setAttribute(name, value === true ? "" : value);
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child);
    }
  }
  return node;
}
