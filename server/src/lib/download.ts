import type { Response } from 'express';
import type { AppContext } from '../context';

/** Starts a file download with the given name. */
export function attachment(res: Response, fileName: string, format: 'csv' | 'json'): void {
  res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  res.setHeader('Cache-Control', 'no-store');
}

/** Streams an export; a failure after the first byte can only cut the download short. */
export async function streamDownload(ctx: AppContext, res: Response, write: () => Promise<void>): Promise<void> {
  try {
    await write();
    res.end();
  } catch (err) {
    ctx.log('Export failed', err);
    res.destroy();
  }
}
