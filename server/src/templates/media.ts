import fs from 'node:fs';
import path from 'node:path';

/** Media types WhatsApp accepts, by extension. */
export const MEDIA_EXTENSIONS = {
  image: ['.jpg', '.jpeg', '.png', '.gif', '.webp', '.bmp', '.svg'],
  video: ['.mp4', '.3gp'],
  audio: ['.mp3', '.ogg', '.opus', '.aac', '.m4a', '.amr'],
  document: ['.pdf', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.txt', '.csv', '.zip'],
} as const;
export const ALL_MEDIA_EXTENSIONS: string[] = Object.values(MEDIA_EXTENSIONS).flat();

export const MEDIA_MAX_BYTES = 16 * 1024 * 1024;
export const MEDIA_TOO_LARGE = 'File terlalu besar: media maksimal 16 MB.';
export const MEDIA_TYPE =
  'Jenis file tidak didukung. Gunakan gambar (jpg, jpeg, png, gif, webp, bmp, svg), video (mp4, 3gp), audio (mp3, ogg, opus, aac, m4a, amr) atau dokumen (pdf, doc, docx, xls, xlsx, ppt, pptx, txt, csv, zip).';

/** The public URL of a stored upload. */
export const mediaUrl = (fileName: string) => `/uploads/${fileName}`;

/** The file behind a `/uploads/…` URL, or null when the URL is not one of ours. */
export function mediaFile(uploadsDir: string, url: string | null | undefined): string | null {
  if (!url) return null;
  const m = /^\/uploads\/([A-Za-z0-9._-]+)$/.exec(url.trim());
  if (!m || m[1]!.startsWith('.')) return null;
  return path.join(uploadsDir, m[1]!);
}

/** Removes the file of a media URL that no template uses any more. */
export function removeMedia(uploadsDir: string, url: string | null | undefined): void {
  const file = mediaFile(uploadsDir, url);
  if (file) fs.rm(file, { force: true }, () => undefined);
}
