import { API_BASE, ApiError, errorFromAnswer } from './http';
import { downloadBlob } from './download';
import { getToken } from './session';

/** A failed answer's text as ApiError, translated like every other call's. */
function errorOf(text: string, status: number, fallback: string): Promise<ApiError> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined; // not JSON
  }
  return errorFromAnswer(body, status, fallback);
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
  if (!res.ok) throw await errorOf(await res.text(), res.status, fallback);
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
      } else void errorOf(xhr.responseText, xhr.status, fallback).then(reject);
    };
    xhr.send(body);
  });
}

/** A random id for matching an import's progress events to this screen. */
export function newImportId(): string {
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}
