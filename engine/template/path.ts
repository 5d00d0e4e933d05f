import { InvalidParamsError } from '../errors.js';
import { compileTemplate, type CompiledTemplate, type TemplateContext } from './compile.js';
import { templateUsage } from './variables.js';

interface Segment {
  template: CompiledTemplate;
  dynamic: boolean;
  names: string[];
}

/** A URL path template whose every rendered value stays inside its own segment. */
export interface CompiledPath {
  readonly source: string;
  render(context: TemplateContext): string;
}

/**
 * Compiles a path template segment by segment. Each value is percent-encoded as one segment, and
 * a value that renders empty, `.` or `..` is refused, so no param can change the host, add a
 * query or fragment, or climb the path. Encoded input such as `%2e%2e` is safe: its `%` is
 * encoded again.
 */
export function compilePath(source: string): CompiledPath {
  const segments: Segment[] = source.split('/').map((part) => ({
    template: compileTemplate(part),
    dynamic: part.includes('{{'),
    names: templateUsage(part).variables.map((parts) => parts.join('.')),
  }));
  return {
    source,
    render(context) {
      return segments.map((segment) => renderSegment(segment, context)).join('/');
    },
  };
}

function renderSegment(segment: Segment, context: TemplateContext): string {
  if (!segment.dynamic) return segment.template.render(context);
  const text = segment.template.render(context);
  const name = segment.names[0] ?? segment.template.source;
  if (text === '') {
    throw new InvalidParamsError(`${name} is required to build the request path`, {
      details: [{ path: fieldPath(name), message: 'is required and may not be empty' }],
    });
  }
  if (text === '.' || text === '..') {
    throw new InvalidParamsError(`${name} may not be "${text}"`, {
      details: [{ path: fieldPath(name), message: 'may not be "." or ".." (it would change the request path)' }],
    });
  }
  return encodeURIComponent(text);
}

function fieldPath(name: string): string {
  return '/' + name.replace(/^params\./, '').replace(/\./g, '/');
}
