// The comparator network of a sorting trace (Trace::network), drawn under the bars: one vertical
// wire per element column (dashed for padding), one row per compare-swap pass in step order (tinted
// for global passes, a line where a stage starts, the current pass highlighted), and each comparator
// as a segment from the index that receives the smaller element (a dot) to the one receiving the
// larger (an arrowhead): warm when it points right (ascending), cool when it points left (descending).
uniform int u_mode;            // 0: pass rows, 1: wires, 2: comparators
uniform vec4 u_net;            // panel x, y, w, h px
uniform int u_net_passes;
uniform int u_net_comps;       // op slots per pass
uniform int u_net_begin[128];  // first op slot of each pass
uniform int u_net_step[128];   // step index of each pass
uniform int u_net_flags[128];  // 1: first pass of a stage, 2: global pass
uniform int u_net_current;     // the pass drawn now (its row is magnified), -1 when the step is not a pass
const float kMagnify = 4.0;
flat out vec4 v_color;
flat out int v_dash;
out float v_y;
vec2 quad(int v) { return vec2(float(v == 1 || v == 2 || v == 4), float(v >= 2 && v <= 4)); }
void emit(vec2 px, vec4 color, int dash) {
  gl_Position = to_ndc(px);
  v_color = color;
  v_dash = dash;
  v_y = px.y;
}
void hide() { gl_Position = vec4(2.0, 2.0, 2.0, 1.0); v_color = vec4(0.0); v_dash = 0; v_y = 0.0; }
// Row p's top and height: the current pass gets kMagnify rows' height, so that its comparators separate.
float unit_h() { return u_net.w / (float(max(u_net_passes, 1)) + (u_net_current >= 0 ? kMagnify - 1.0 : 0.0)); }
float row_top(int p) { return u_net.y + unit_h() * (float(p) + (u_net_current >= 0 && p > u_net_current ? kMagnify - 1.0 : 0.0)); }
float row_h(int p) { return unit_h() * (p == u_net_current ? kMagnify : 1.0); }
void main() {
  int v = gl_VertexID;
  if (u_mode == 0) {
    int p = gl_InstanceID;
    bool current = u_net_step[p] == u_step;
    bool global_pass = (u_net_flags[p] & 2) != 0;
    float y0 = row_top(p), rowh = row_h(p);
    if (v < 6) {
      vec2 c = quad(v);
      vec4 col = current ? vec4(1.0, 0.85, 0.30, 0.22) : global_pass ? vec4(0.35, 0.55, 1.0, 0.12)
                                                                     : vec4(1.0, 1.0, 1.0, p % 2 == 0 ? 0.03 : 0.0);
      emit(vec2(u_net.x + c.x * u_net.z, y0 + c.y * rowh), col, 0);
    } else {
      if ((u_net_flags[p] & 1) == 0 || p == 0) { hide(); return; }
      vec2 c = quad(v - 6);
      emit(vec2(u_net.x + c.x * u_net.z, y0 - 0.5 + c.y * 1.0), vec4(0.75, 0.75, 0.8, 0.45), 0);
    }
    return;
  }
  if (u_mode == 1) {
    int i = gl_InstanceID;
    vec2 c = quad(v);
    float x = cell_x(0, i);
    emit(vec2(x - 0.5 + c.x, u_net.y + c.y * u_net.w), i >= u_n ? vec4(0.9, 0.6, 0.3, 0.45) : vec4(0.7, 0.7, 0.75, 0.35),
         i >= u_n ? 1 : 0);
    return;
  }
  int p = gl_InstanceID / max(u_net_comps, 1), k = gl_InstanceID - p * max(u_net_comps, 1);
  float rowh = row_h(p);
  ivec4 op = texelFetch(u_ops, u_net_begin[p] + k);
  if ((op.y & 255) != 5 || op.z < 0 || op.w < 0) { hide(); return; }
  int src = op.z, dst = op.w;
  int stride = abs(dst - src);
  // Comparators of one pass that overlap (stride > 1) go to sub-rows, as far as the row has room.
  int subs = max(1, min(stride, int(rowh / 3.0)));
  int sub = min(src, dst) % subs;
  float y = row_top(p) + (float(sub) + 0.5) / float(subs) * rowh;
  float x0 = cell_x(0, src), x1 = cell_x(0, dst);
  bool current = u_net_step[p] == u_step, done = u_net_step[p] < u_step;
  vec3 rgb = dst > src ? kNetUp : kNetDown;
  // Passes done in their colour, passes to come greyer, both plainly visible; the current one brightest.
  vec4 col = current ? vec4(rgb, 1.0) : done ? vec4(rgb * 0.9, 0.8) : vec4(mix(rgb, vec3(0.75), 0.45), 0.65);
  float th = max(min(current ? 1.3 : 0.9, 0.22 * rowh / float(subs)), 0.5);  // keep gaps between sub-rows
  float dir = x1 > x0 ? 1.0 : -1.0;
  float cw = cell_w(0);
  float head = clamp(min(rowh / float(subs) * 0.9, cw * 0.7), 2.5, current ? 7.0 : 5.0);
  if (v < 6) {
    vec2 c = quad(v);
    emit(vec2(mix(x0, x1 - dir * head * 0.8, c.x), y - th + c.y * 2.0 * th), col, 0);
  } else if (v < 9) {
    vec2 tip = vec2(x1, y), back = tip - vec2(dir * head, 0.0);
    vec2 pos = v == 6 ? tip : back + vec2(0.0, (v == 7 ? 0.55 : -0.55) * head);
    emit(pos, col, 0);
  } else {
    vec2 c = quad(v - 9);
    float r = min(current ? 2.2 : 1.5, max(0.8, 0.35 * rowh / float(subs)));
    emit(vec2(x0 - r + c.x * 2.0 * r, y - r + c.y * 2.0 * r), col, 0);
  }
}
