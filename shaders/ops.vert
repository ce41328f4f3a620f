// The operations of the step as arrows: an arc between two bars of the focus row (the tree edges
// of a sweep level), a straight arrow between rows. One instance per op slot; empty slots vanish.
// Two ops on one pair in opposite directions (the down-sweep's move and add) stay two arrows: arcs
// to the right rise higher and sit right of the bars' centres, arcs to the left lower and left of
// them. An arc's top stays inside the room above the bars (u_arcs_top).
uniform int u_op_begin;
uniform ivec2 u_highlight;        // row, index under the mouse (-1: none)
uniform float u_arcs_top;         // top of the room for the arcs, px
flat out int v_kind;
flat out int v_hi;
out vec2 v_pos;                   // px, y down
const int kSegments = 12;
vec2 bezier(vec2 a, vec2 b, vec2 c, float t) { return mix(mix(a, b, t), mix(b, c, t), t); }
void main() {
  ivec4 op = texelFetch(u_ops, u_op_begin + gl_InstanceID);
  int kind = op.y & 255, src_row = (op.y >> 8) & 255, dst_row = (op.y >> 16) & 255;
  v_kind = kind;
  v_hi = int((src_row == u_highlight.x && op.z == u_highlight.y) || (dst_row == u_highlight.x && op.w == u_highlight.y));
  v_pos = vec2(0.0);
  bool hidden = kind == 0 || op.w < 0 || (src_row != u_focus && u_row_y[src_row] < 0.0) ||
                (dst_row != u_focus && u_row_y[dst_row] < 0.0);
  if (hidden) { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); return; }
  bool arc = src_row == dst_row && op.z >= 0;
  // An arc leaves and enters from above; a straight arrow from the side that faces the other row.
  vec2 q = anchor(dst_row, op.w, arc ? -1e9 : row_mid_y(src_row));
  vec2 p = op.z >= 0 ? anchor(src_row, op.z, arc ? -1e9 : row_mid_y(dst_row)) : q - vec2(0.0, 14.0);
  vec2 mid = 0.5 * (p + q);
  if (arc) {
    bool right = q.x > p.x;
    float side = 0.15 * min(cell_w_at(src_row, op.z), 24.0) * (right ? 1.0 : -1.0);
    p.x += side;
    q.x += side;
    float rise = (right ? 0.30 : 0.18) * abs(q.x - p.x) + (right ? 8.0 : 5.0);
    mid.y = min(p.y, q.y) - rise;
    // Keep the arc's highest point below the room's top T: a quadratic's extreme y is
    // (p q - m^2) / (p + q - 2 m), which is T for m = T - sqrt((p - T) (q - T)).
    float top = u_arcs_top + 3.0;
    mid.y = max(mid.y, top - sqrt(max((p.y - top) * (q.y - top), 0.0)));
  }
  int v = gl_VertexID;
  vec2 pos;
  float width = v_hi == 1 ? 2.5 : 1.3;
  float head = v_hi == 1 ? 8.0 : 6.0;
  // The line stops where the head begins (the curve's length is about its control polygon's).
  float t_end = clamp(1.0 - 0.8 * head / max(length(mid - p) + length(q - mid), 1.0), 0.5, 0.97);
  if (v < kSegments * 6) {
    int seg = v / 6, corner = v % 6;
    float t = float(seg + (corner == 1 || corner == 2 || corner == 4 ? 1 : 0)) / float(kSegments);
    t = min(t, t_end);
    vec2 a = bezier(p, mid, q, t);
    vec2 tan = normalize(bezier(p, mid, q, min(t + 0.01, 1.0)) - bezier(p, mid, q, max(t - 0.01, 0.0)) + vec2(1e-6));
    vec2 nrm = vec2(-tan.y, tan.x);
    float side = (corner == 2 || corner == 4 || corner == 5) ? 1.0 : -1.0;
    pos = a + nrm * side * width;
  } else {
    vec2 tip = q;
    vec2 back = bezier(p, mid, q, t_end);
    vec2 dir = normalize(tip - back + vec2(1e-6));
    vec2 nrm = vec2(-dir.y, dir.x);
    int k = v - kSegments * 6;
    pos = k == 0 ? tip : tip - dir * head + nrm * (k == 1 ? 0.5 : -0.5) * head;
  }
  v_pos = pos;
  gl_Position = to_ndc(pos);
}
