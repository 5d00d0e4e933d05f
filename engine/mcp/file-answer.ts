import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DownloadStream } from '../runtime/index.js';
import { MCP_BUDGET } from './result-budget.js';

/** Reads a file up to the budget, then stops the transfer: the rest is never fetched. */
async function readCapped(file: DownloadStream): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size > MCP_BUDGET.fileBytes) {
      file.cancel();
      return { bytes: Buffer.concat(chunks).subarray(0, MCP_BUDGET.fileBytes), cut: true };
    }
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

/** Text a model can read as such; anything else travels as base64. */
function isText(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type === 'application/xml' || type.endsWith('+xml');
}

/**
 * A downloaded file as a tool answer: what the file host said and the record that named the file
 * (as JSON text), then the bytes as an embedded resource, cut at MCP_BUDGET.fileBytes.
 */
export async function fileAnswer(file: DownloadStream, tool: string): Promise<CallToolResult> {
  const { bytes, cut } = await readCapped(file);
  const name = String(file.record.name ?? file.record.id ?? 'file');
  const uri = `connector-engine:///${tool}/${encodeURIComponent(name)}`;
  const mimeType = file.contentType ?? 'application/octet-stream';
  const summary = {
    status: file.status,
    content_type: file.contentType ?? null,
    content_length: file.contentLength ?? null,
    bytes_returned: bytes.length,
    truncated: cut,
    ...(cut
      ? {
          note: `the file is larger than the ${MCP_BUDGET.fileBytes} bytes one answer carries; read it with the CLI or the HTTP API, or ask for a byte range where the action takes one`,
        }
      : {}),
    record: file.record,
  };
  const resource = isText(file.contentType) ? { uri, mimeType, text: bytes.toString('utf8') } : { uri, mimeType, blob: bytes.toString('base64') };
  return {
    content: [
      { type: 'text', text: JSON.stringify(summary) },
      { type: 'resource', resource },
    ],
  };
}
