// 3x5 pixel glyphs scaled to the box; nothing is drawn when the text does not fit.
flat in uvec2 v_text;
flat in int v_len;
in vec2 v_local;
flat in vec2 v_box;
uniform vec3 u_ink;
out vec4 frag;
// Rows top to bottom, 3 bits each (bit 2 = left column).
const int kGlyphs[12] = int[12](0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF,
                                0x01C0, 0x0002);
void main() {
  if (v_len == 0) discard;
  float s = floor(min(v_box.y / 7.0, (v_box.x - 1.0) / (4.0 * float(v_len))));
  if (s < 1.0) discard;
  vec2 size = vec2(4.0 * float(v_len) - 1.0, 5.0) * s;
  vec2 p = (v_local - 0.5 * (v_box - size)) / s;
  if (p.x < 0.0 || p.y < 0.0 || p.x >= size.x / s || p.y >= 5.0) discard;
  int ch = int(p.x) / 4, col = int(p.x) % 4, r = int(p.y);
  if (col == 3 || ch >= v_len) discard;
  uint code = ch < 8 ? (v_text.x >> uint(4 * ch)) & 15u : (v_text.y >> uint(4 * (ch - 8))) & 15u;
  int bits = kGlyphs[int(code)];
  if (((bits >> ((4 - r) * 3 + (2 - col))) & 1) == 0) discard;
  frag = vec4(u_ink, 1.0);
}
