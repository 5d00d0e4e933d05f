import Handlebars from 'handlebars';
import { TEMPLATE_HELPERS } from './helpers.js';
import { singleVariable } from './variables.js';

/** The values a template may read. */
export interface TemplateContext {
  params?: Record<string, unknown>;
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
}

/** A template compiled once at manifest load and rendered on every call. */
export interface CompiledTemplate {
  readonly source: string;
  /** The text the template renders to. */
  render(context: TemplateContext): string;
  /** The raw value for a template that is exactly one `{{variable}}`; the rendered text otherwise. */
  value(context: TemplateContext): unknown;
}

const handlebars = Handlebars.create();
for (const [name, helper] of Object.entries(TEMPLATE_HELPERS)) handlebars.registerHelper(name, helper);

function lookup(context: TemplateContext, parts: readonly string[]): unknown {
  let current: unknown = context;
  for (const part of parts) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

// A template that is one `{{json ...}}` call stands for the value itself (arrays, objects, numbers).
const JSON_ONLY = /^\{\{\s*json\s[^{}]*(?:\([^{}]*\)[^{}]*)*\}\}$/;

/**
 * The render of a template that is one `{{variable}}`: a text or number found as the context's
 * own property is the text Handlebars would give (it prints it as is, escaping being off), read
 * without running the template; anything else (absent, null, objects, arrays) takes Handlebars'
 * own path. Why: signing renders the token template on every request.
 */
function directRender(variable: readonly string[], rendered: (context: TemplateContext) => string): (context: TemplateContext) => string {
  return (context) => {
    const found = lookup(context, variable);
    if (typeof found === 'string') return found;
    if (typeof found === 'number') return String(found);
    return rendered(context);
  };
}

/**
 * Compiles a manifest template. Escaping is off here on purpose: each place a value lands (path
 * segment, query, header, JSON body) applies its own encoding, which HTML escaping would corrupt.
 */
export function compileTemplate(source: string): CompiledTemplate {
  const variable = singleVariable(source);
  const isStatic = !source.includes('{{');
  const renderFn = isStatic ? () => source : handlebars.compile(source, { noEscape: true, strict: false, knownHelpersOnly: false });
  const rendered = (context: TemplateContext): string => renderFn(context, { allowProtoPropertiesByDefault: false });
  const render = variable ? directRender(variable, rendered) : rendered;
  const value = variable
    ? (context: TemplateContext) => lookup(context, variable)
    : JSON_ONLY.test(source)
      ? (context: TemplateContext) => {
          const text = render(context);
          return text === '' ? undefined : (JSON.parse(text) as unknown);
        }
      : render;
  return { source, render, value };
}
