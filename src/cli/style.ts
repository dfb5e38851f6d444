// Colour and weight for a terminal only: never in a pipe or a file, never with NO_COLOR set (no-color.org).
const enabled = (stream: NodeJS.WriteStream) => stream.isTTY === true && !process.env.NO_COLOR;

const sgr = (stream: NodeJS.WriteStream, code: string) => (text: string) =>
  enabled(stream) ? `\x1b[${code}m${text}\x1b[0m` : text;

export const bold = sgr(process.stdout, '1');
export const errorStyle = sgr(process.stderr, '31');
