import { API_BASE, ApiError } from './http';
import { downloadBlob } from './download';
import { getToken } from './session';

function messageOf(text: string, fallback: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const key of ['msg', 'message', 'error']) if (typeof body[key] === 'string' && body[key]) return body[key] as string;
  } catch {
    // not JSON
  }
  return fallback;
}

/** Downloads a file the server streams (exports, skipped lists), with the session's token. */
export async function downloadFromApi(path: string, fileName: string, fallback = 'Internal server error'): Promise<void> {
  const token = getToken();
  if (!token) throw new ApiError('Authorization token is missing', 401);
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    throw new ApiError('Network error. Please try again.', 0);
  }
  if (!res.ok) throw new ApiError(messageOf(await res.text(), fallback), res.status);
  downloadBlob(await res.blob(), fileName);
}

/**
 * A multipart upload that reports how much of the file has been sent (fetch cannot), answering the
 * parsed JSON body or throwing ApiError with the server's msg.
 */
export function uploadWithProgress<T>(path: string, body: FormData, onProgress: (fraction: number) => void, fallback: string): Promise<T> {
  const token = getToken();
  if (!token) return Promise.reject(new ApiError('Authorization token is missing', 401));
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError('Network error. Please try again.', 0));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          reject(new ApiError(fallback, xhr.status));
        }
      } else reject(new ApiError(messageOf(xhr.responseText, fallback), xhr.status));
    };
    xhr.send(body);
  });
}

/** A random id for matching an import's progress events to this screen. */
export function newImportId(): string {
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}
