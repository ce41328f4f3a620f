// A 3x5 pixel font at the label's scale. It has the characters format_cell prints: digits, - . + e,
// those of inf and nan, and t and | of a tagged counter. The text starts on a whole pixel, so that
// every glyph row samples the same columns.
flat in uvec4 v_text;
flat in int v_len;
flat in float v_scale;
flat in vec2 v_origin;
uniform vec3 u_ink;
out vec4 frag;
// Rows top to bottom, 3 bits each (bit 2 = left column).
const int kDigits[10] = int[10](0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF);
int glyph(uint ch) {
  if (ch >= 48u && ch <= 57u) return kDigits[ch - 48u];
  if (ch == 45u) return 0x01C0;   // -
  if (ch == 46u) return 0x0002;   // .
  if (ch == 43u) return 0x05D0;   // +
  if (ch == 101u) return 0x7BE7;  // e
  if (ch == 105u) return 0x2092;  // i
  if (ch == 110u) return 0x0D6D;  // n
  if (ch == 102u) return 0x39E4;  // f
  if (ch == 97u) return 0x0CEF;   // a
  if (ch == 116u) return 0x2E93;  // t
  if (ch == 124u) return 0x2492;  // |
  return 0x7FFF;                  // anything else: a block, never silently nothing
}
void main() {
  if (v_len == 0) discard;
  float s = v_scale;
  vec2 px = vec2(gl_FragCoord.x, u_viewport.y - gl_FragCoord.y);
  vec2 p = (px - v_origin) / s;
  if (p.x < 0.0 || p.y < 0.0 || p.x >= 4.0 * float(v_len) - 1.0 || p.y >= 5.0) discard;
  int ch = int(p.x) / 4, col = int(p.x) % 4, r = int(p.y);
  if (col == 3 || ch >= v_len) discard;
  int bits = glyph((v_text[ch / 4] >> uint(8 * (ch % 4))) & 255u);
  if (((bits >> ((4 - r) * 3 + (2 - col))) & 1) == 0) discard;
  frag = vec4(u_ink, 1.0);
}
