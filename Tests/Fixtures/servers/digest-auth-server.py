"""An HTTP server on 127.0.0.1 that only accepts HTTP digest authentication (RFC 7616, MD5, qop=auth).

Usage: digest-auth-server.py PORT USER PASSWORD LOG

GET /digest/secret.txt answers 200 with the body `digest authorized` when the Authorization
header carries a valid digest response for a nonce this server issued, else 401 with a
`WWW-Authenticate: Digest` challenge (Basic credentials are refused). Every request appends
one line to LOG: the status sent, then the authorization scheme the client used (`none`,
`Basic`, `Digest`).
"""

import hashlib
import http.server
import re
import secrets
import sys
import threading

REALM = "webimage-digest"
BODY = b"digest authorized"


def md5_hex(text):
    return hashlib.md5(text.encode()).hexdigest()


class DigestHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    nonces = set()
    lock = threading.Lock()

    def do_GET(self):
        authorization = self.headers.get("Authorization", "")
        scheme = authorization.split(" ", 1)[0] if authorization else "none"
        if self.path == "/digest/secret.txt" and self.is_valid_digest(authorization):
            self.answer(200, BODY, {"Content-Type": "text/plain"}, scheme)
        else:
            nonce = secrets.token_hex(16)
            with self.lock:
                self.nonces.add(nonce)
            challenge = f'Digest realm="{REALM}", qop="auth", algorithm=MD5, nonce="{nonce}"'
            self.answer(401, b"unauthorized", {"WWW-Authenticate": challenge}, scheme)

    def is_valid_digest(self, authorization):
        if not authorization.startswith("Digest "):
            return False
        pairs = re.findall(r'(\w+)=(?:"([^"]*)"|([^,\s]*))', authorization[len("Digest "):])
        fields = {name: quoted or bare for name, quoted, bare in pairs}
        with self.lock:
            known_nonce = fields.get("nonce") in self.nonces
        if not known_nonce or fields.get("username") != USER or fields.get("realm") != REALM:
            return False
        if fields.get("uri") != self.path or fields.get("qop") != "auth":
            return False
        first = md5_hex(f"{USER}:{REALM}:{PASSWORD}")
        second = md5_hex(f"GET:{self.path}")
        expected = md5_hex(
            f"{first}:{fields['nonce']}:{fields.get('nc', '')}:{fields.get('cnonce', '')}:auth:{second}")
        return secrets.compare_digest(expected, fields.get("response", ""))

    def answer(self, status, body, headers, scheme):
        with self.lock, open(LOG, "a") as log:
            log.write(f"{status} {scheme}\n")
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    PORT, USER, PASSWORD, LOG = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    http.server.ThreadingHTTPServer(("127.0.0.1", PORT), DigestHandler).serve_forever()
