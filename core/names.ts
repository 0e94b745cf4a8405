// Names from a file (surfaces, tags, joints, clips, texture paths) as messages print them. A name
// is the file's bytes: a newline in an MD3 tag's name split a warning over two lines, and a path of
// a million characters made a message of a million characters.

/** The most characters of a name a message shows; the rest is cut at the middle. */
export const MAX_SHOWN_NAME = 120;

/**
 * `name` in double quotes, escaped as JSON escapes it (`\n`, `\"`, `\\`, `\u0001`), and also DEL,
 * the C1 controls and U+2028/U+2029 (which JSON leaves raw but terminals and editors break lines
 * or act on): what is printed is one line, and pasted into JSON reads back as the name. A name
 * longer than `max` characters keeps its start and end around `…`, with its length.
 */
export function quotedName(name: string, max = MAX_SHOWN_NAME): string {
  const shown = name.length > max ? `${name.slice(0, Math.ceil(max / 2))}…${name.slice(name.length - Math.floor(max / 2))}` : name;
  const quoted = JSON.stringify(shown).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return name.length > max ? `${quoted} (${name.length.toLocaleString('en-US')} characters)` : quoted;
}
