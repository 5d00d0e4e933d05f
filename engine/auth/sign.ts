import type { SignSpec } from '../manifest/index.js';
import { compileTemplate, type TemplateContext } from '../template/index.js';

/** Turns a scheme's signing spec into the headers each request carries. */
export type Signer = (context: TemplateContext) => Record<string, string>;

/** Compiles a signing spec once; rendering then only reads the current credentials. */
export function compileSigner(spec: SignSpec): Signer {
  if (spec.type === 'bearer') {
    const token = compileTemplate(spec.token);
    const extra = Object.entries(spec.headers ?? {}).map(([name, value]) => [name.toLowerCase(), compileTemplate(value)] as const);
    // Most bearer schemes add no header: their signer builds one small object and nothing else.
    if (extra.length === 0) return (context) => ({ authorization: `Bearer ${token.render(context)}` });
    return (context) => ({
      ...Object.fromEntries(extra.map(([name, template]) => [name, template.render(context)])),
      authorization: `Bearer ${token.render(context)}`,
    });
  }
  if (spec.type === 'basic') {
    const username = compileTemplate(spec.username);
    const password = compileTemplate(spec.password);
    return (context) => ({
      authorization: `Basic ${Buffer.from(`${username.render(context)}:${password.render(context)}`).toString('base64')}`,
    });
  }
  const headers = Object.entries(spec.headers).map(([name, value]) => [name.toLowerCase(), compileTemplate(value)] as const);
  return (context) => Object.fromEntries(headers.map(([name, template]) => [name, template.render(context)]));
}
