import { ApiError } from "./error.ts";

/** An upload in flight: its answer, and a way to stop it. */
export interface UploadHandle<T> {
  readonly promise: Promise<T>;
  abort(): void;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: { get(name: string): string | null };
}

/** One multipart POST through XMLHttpRequest, for its upload progress; the answer's JSON as read. */
export const sendWithProgress = (
  url: string,
  form: FormData,
  headers: Record<string, string>,
  onProgress: (loaded: number, total: number) => void,
  unreachable: () => string,
): UploadHandle<Answer> => {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<Answer>((resolve, reject) => {
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    let size = 0;
    xhr.upload.onprogress = (e) => {
      size = e.lengthComputable ? e.total : size;
      onProgress(e.loaded, size);
    };
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(xhr.responseText);
        if (parsed !== null && typeof parsed === "object") body = parsed as Record<string, unknown>;
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300 && size > 0) onProgress(size, size);
      resolve({ status: xhr.status, body, headers: { get: (name) => xhr.getResponseHeader(name) } });
    };
    xhr.onerror = () => reject(new ApiError(0, unreachable()));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
};
