// Forwards each request to `vaultspec mcp --http` with the bearer token
// added, so the conformance suite, which sends none, can reach the server.
// An Origin naming the proxy itself is turned into the server's own (the
// two listen on different ports); every other Origin, the Host, the body
// and the streamed reply pass as they are, so the rebinding checks still
// reach the server unchanged.
// Usage: node proxy.mjs PORT TARGET_URL TOKEN_FILE   (prints "listening PORT")
import http from 'node:http';
import fs from 'node:fs';

const [port, target, tokenFile] = process.argv.slice(2);
const upstream = new URL(target);
const token = fs.readFileSync(tokenFile, 'utf8').trim();

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const own = [`http://127.0.0.1:${server.address().port}`, `http://localhost:${server.address().port}`];
  if (own.includes(headers.origin)) {
    headers.origin = headers.origin.replace(/:\d+$/, `:${upstream.port}`);
  }
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
    (reply) => {
      res.writeHead(reply.statusCode, reply.headers);
      reply.pipe(res);
    },
  );
  forward.on('error', (err) => {
    res.writeHead(502);
    res.end(String(err));
  });
  req.pipe(forward);
});
server.listen(Number(port), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
