// Words and numbers as the table shows them: %(name)s templates filled in, scores with a sign.

export function format(template, params) {
  return String(template).replace(/%\((\w+)\)s/g, (whole, key) =>
    Object.hasOwn(params, key) ? String(params[key]) : whole,
  );
}

// A running total, with the typographic minus sign.
export function total(number) {
  return number < 0 ? `\u2212${Math.abs(number)}` : String(number);
}

// A deal's score: with its sign, + or −, unless it is 0.
export function signed(number) {
  return number > 0 ? `+${number}` : total(number);
}
