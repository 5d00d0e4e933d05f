import { compileTemplate, type CompiledTemplate } from '../template/index.js';

const cache = new Map<string, CompiledTemplate>();

/**
 * A manifest template compiled once per process. Why: an authorization renders the same few
 * templates (authorize URL, exchange fields) on every call, and compiling them cost more than
 * rendering; the sources come from loaded manifests, so the cache stays small.
 */
export function cachedTemplate(source: string): CompiledTemplate {
  let template = cache.get(source);
  if (!template) {
    template = compileTemplate(source);
    cache.set(source, template);
  }
  return template;
}
