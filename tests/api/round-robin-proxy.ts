// A loopback round-robin reverse proxy for the multi-process tests, as a balancer in front of Crown's API
// processes behaves: each request goes to the next upstream; one that refuses the connection (stopped or
// killed) is skipped for the next, the request not yet sent; one that dies while answering cuts the
// client's connection, as the TCP connection would (the client then retries). Bodies are read whole
// before forwarding (the tests' uploads are small), so a skipped upstream costs the client nothing.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  readonly url: string;
  /** Requests sent to each upstream port. */
  readonly sent: Map<number, number>;
  readonly close: () => Promise<void>;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"]);

export const startRoundRobinProxy = async (upstreams: () => readonly number[]): Promise<RoundRobinProxy> => {
  let next = 0;
  const sent = new Map<number, number>();

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: number) => {
    const ports = upstreams();
    const port = ports[next++ % ports.length]!;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    headers["content-length"] = String(body.byteLength);
    const upstream = request({ host: "127.0.0.1", port, method: req.method, path: req.url, headers, agent: false }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      res.flushHeaders();
      answer.on("data", (chunk: Buffer) => res.write(chunk));
      answer.on("end", () => res.end());
      // The upstream died mid-answer: the client's connection is cut too.
      answer.on("aborted", () => res.destroy());
      answer.on("error", () => res.destroy());
    });
    sent.set(port, (sent.get(port) ?? 0) + 1);
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      // Refused: nothing reached that process; the next one gets the request (at most two rounds).
      if (!res.headersSent && error.code === "ECONNREFUSED" && tried + 1 < ports.length * 2) return forward(req, res, body, tried + 1);
      res.destroy();
    });
    // The client went away (a tab closing its event stream): so does the upstream request.
    res.on("close", () => upstream.destroy());
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), 0));
    req.on("error", () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
