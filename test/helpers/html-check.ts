/**
 * A structural check of the HTML the build writes, for pages no browser loads: tags balance,
 * attributes are double-quoted with escaped values, text has no raw `<` and every `&` starts a
 * character reference. It knows only what our pages use (void elements, raw-text <style>,
 * self-closing SVG children); it is not a validator. It also counts elements, so a test can
 * compare with what Chromium's parser builds from the same source (a mismatch means the parser
 * repaired something).
 */
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const RAW_TEXT = new Set(["style", "script"]);
const REFERENCE = /&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/giy;
const ATTRIBUTE = /\s+([a-zA-Z][a-zA-Z0-9:-]*)(?:="([^"<]*)")?/y;
const NAME = /[a-zA-Z][a-zA-Z0-9-]*/y;

export interface HtmlCheck {
  errors: string[];
  /** Elements opened in the source, including html, head and body. */
  elementCount: number;
}

function checkText(text: string, at: number, errors: string[]): void {
  for (let i = text.indexOf("&"); i >= 0; i = text.indexOf("&", i + 1)) {
    REFERENCE.lastIndex = i;
    if (!REFERENCE.test(text)) errors.push(`bare & at ${at + i}: ${JSON.stringify(text.slice(i, i + 12))}`);
  }
  if (text.includes(">")) errors.push(`raw > in text at ${at}: ${JSON.stringify(text.slice(0, 40))}`);
}

export function checkHtml(source: string): HtmlCheck {
  const errors: string[] = [];
  const stack: string[] = [];
  let elementCount = 0;
  let at = 0;
  if (!/^<!doctype html>/i.test(source)) errors.push("no <!doctype html> first");
  else at = "<!doctype html>".length;
  while (at < source.length) {
    const lt = source.indexOf("<", at);
    const end = lt < 0 ? source.length : lt;
    checkText(source.slice(at, end), at, errors);
    if (lt < 0) break;
    if (source.startsWith("<!--", lt)) {
      const close = source.indexOf("-->", lt);
      at = close < 0 ? source.length : close + 3;
      continue;
    }
    const closing = source[lt + 1] === "/";
    NAME.lastIndex = lt + (closing ? 2 : 1);
    const name = NAME.exec(source)?.[0].toLowerCase();
    if (!name) {
      errors.push(`raw < in text at ${lt}: ${JSON.stringify(source.slice(lt, lt + 20))}`);
      at = lt + 1;
      continue;
    }
    let i = NAME.lastIndex;
    if (closing) {
      if (source[i] !== ">") errors.push(`malformed end tag </${name} at ${lt}`);
      const open = stack.pop();
      if (open !== name) errors.push(`</${name}> at ${lt} closes <${open ?? "nothing"}>`);
      at = i + 1;
      continue;
    }
    for (;;) {
      ATTRIBUTE.lastIndex = i;
      const match = ATTRIBUTE.exec(source);
      if (!match) break;
      if (match[2] !== undefined) checkText(match[2], i, errors);
      i = ATTRIBUTE.lastIndex;
    }
    const selfClosing = source.startsWith("/>", i);
    if (!selfClosing && source[i] !== ">") errors.push(`malformed attributes in <${name}> at ${lt}: ${JSON.stringify(source.slice(i, i + 30))}`);
    at = i + (selfClosing ? 2 : 1);
    elementCount++;
    if (VOID.has(name) || selfClosing) continue;
    if (RAW_TEXT.has(name)) {
      const close = source.toLowerCase().indexOf(`</${name}>`, at);
      if (close < 0) errors.push(`<${name}> at ${lt} never closed`);
      at = close < 0 ? source.length : close + name.length + 3;
      continue;
    }
    stack.push(name);
  }
  if (stack.length) errors.push(`never closed: ${stack.join(" > ")}`);
  return { errors, elementCount };
}
