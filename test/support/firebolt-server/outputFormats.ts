import { formatJsonValue, typeName } from './fireboltTypes.ts';
import type { QueryResult, ResultColumn } from './queryResult.ts';
import { FireboltServerError } from './serverErrors.ts';

export interface RenderedBody {
  contentType: string;
  body: string;
}

export interface QueryInfo {
  queryId: string;
  requestId: string;
  queryLabel: string | null;
  elapsedSeconds: number;
  rowsRead: number;
}

const JSON_COMPACT_LIMITED_ROWS = 10_000;

function metaType(column: ResultColumn): string {
  return `${typeName(column.type)}${column.nullable ? ' null' : ''}`;
}

function statistics(info: QueryInfo, bytesRead: number): string {
  return JSON.stringify({
    elapsed: info.elapsedSeconds,
    rows_read: info.rowsRead,
    bytes_read: bytesRead,
    time_before_execution: 0,
    time_to_execute: info.elapsedSeconds,
    scanned_bytes_cache: 0,
    scanned_bytes_storage: 0,
  });
}

/** Rows are rendered with a hand-built JSON writer because `long` values may exceed 2^53. */
function rowsJson(result: QueryResult): string[] {
  return result.rows.map(
    (row) => `[${row.map((value, index) => formatJsonValue(value, result.columns[index].type)).join(',')}]`,
  );
}

export function renderResult(format: string, result: QueryResult, info: QueryInfo): RenderedBody {
  switch (format) {
    case 'JSON_Compact':
    case 'JSON_CompactLimited': {
      const rows = rowsJson(result);
      const limited = format === 'JSON_CompactLimited' ? rows.slice(0, JSON_COMPACT_LIMITED_ROWS) : rows;
      const meta = JSON.stringify(result.columns.map((column) => ({ name: column.name, type: metaType(column) })));
      const query = JSON.stringify({
        query_id: info.queryId,
        request_id: info.requestId,
        query_label: info.queryLabel,
      });
      const body = `{"query":${query},"meta":${meta},"data":[${limited.join(',')}],"rows":${limited.length},"statistics":${statistics(info, limited.join('').length)}}`;
      return { contentType: 'application/json', body };
    }
    case 'JSONLines_Compact': {
      const start = {
        message_type: 'START',
        query_id: info.queryId,
        query_label: info.queryLabel,
        request_id: info.requestId,
        result_columns: result.columns.map((column) => ({ name: column.name, type: metaType(column) })),
      };
      const rows = rowsJson(result);
      const lines = [JSON.stringify(start)];
      const batch = 1000;
      for (let i = 0; i < rows.length; i += batch)
        lines.push(`{"message_type":"DATA","data":[${rows.slice(i, i + batch).join(',')}]}`);
      lines.push(`{"message_type":"FINISH_SUCCESSFULLY","statistics":${statistics(info, rows.join('').length)}}`);
      return { contentType: 'application/x-ndjson', body: `${lines.join('\n')}\n` };
    }
    case 'TabSeparatedWithNamesAndTypes': {
      const lines = [result.columns.map((column) => column.name).join('\t'), result.columns.map(metaType).join('\t')];
      for (const row of result.rows) {
        lines.push(
          row
            .map((value, index) =>
              value === null ? '\\N' : escapeTsv(unquote(formatJsonValue(value, result.columns[index].type))),
            )
            .join('\t'),
        );
      }
      return { contentType: 'text/tab-separated-values', body: `${lines.join('\n')}\n` };
    }
    default:
      throw new FireboltServerError(400, 'InvalidSetting', `unknown output_format "${format}"`);
  }
}

function unquote(json: string): string {
  return json.startsWith('"') ? (JSON.parse(json) as string) : json;
}

function escapeTsv(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('\t', '\\t').replaceAll('\n', '\\n');
}
