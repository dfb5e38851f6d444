/**
 * The URL of a worker-thread entry beside this module: compiled (.js) in production and tests, the
 * extension follows whatever this module was loaded as.
 */
export const taskUrl = (name: string) =>
  new URL(`./${name}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;
