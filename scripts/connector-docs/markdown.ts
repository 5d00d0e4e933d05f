/** Markdown pieces the reference pages are built from, so every page escapes text the same way. */

/** Text made safe for one table cell: a pipe would end the cell and a line break the row. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Inline code; a value holding a backtick is fenced with two, as CommonMark allows. */
export function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** A table with one header row; an empty cell shows as a dash so no column looks forgotten. */
export function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((text) => (text === '' ? '-' : cell(text))).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** A fenced code block. */
export function fence(lang: string, text: string): string {
  return `\`\`\`${lang}\n${text}\n\`\`\``;
}

/** The anchor GitHub gives a heading, so the contents can link to it. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}
