// What a file is, decided by its bytes rather than its name.
import { fileTypeFromBuffer } from "file-type";

export type MediaKind = "image" | "video" | "unknown";

const VIDEO = new Set(["video/mp4", "video/quicktime", "video/x-m4v", "video/webm", "video/x-matroska", "video/3gpp"]);

export const sniffMedia = async (bytes: Uint8Array): Promise<{ kind: MediaKind; mime: string | null }> => {
  const type = await fileTypeFromBuffer(bytes);
  if (!type) return { kind: "unknown", mime: null };
  if (VIDEO.has(type.mime)) return { kind: "video", mime: type.mime };
  if (type.mime.startsWith("image/")) return { kind: "image", mime: type.mime };
  return { kind: "unknown", mime: type.mime };
};
