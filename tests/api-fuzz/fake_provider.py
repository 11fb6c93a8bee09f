"""A loopback stand-in for an OpenAI-compatible chat-completions API, so that
POST /api/geo-check runs end to end under the fuzzer instead of answering 503
not_configured. Every answer mentions and cites the fixture site. Prints its port."""

import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FIXTURE = os.environ["FUZZ_FIXTURE_URL"]


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        self.rfile.read(length)
        body = json.dumps(
            {
                "choices": [{"message": {"content": f"A good choice is the workshop at {FIXTURE} (oak furniture)."}}],
                "citations": [FIXTURE],
            }
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"port {server.server_address[1]}", flush=True)
sys.stdout.flush()
server.serve_forever()
