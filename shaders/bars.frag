// Bars of the focus row (u_mode 0), cells of strip row u_row (1), and the overview of the whole
// focus row with the visible window u_sel marked (2), drawn per pixel over one quad. A pixel
// column shows the element under its centre when an element gets a pixel or more (padding, squeezed
// after the real elements, gets fewer pixels than they do); else it sums
// up every element under it: a solid bar to their mean, a dimmer one out to their extremes, and
// the strongest touch, so that a written element never falls between pixels at large n. Colours: idle, read, written (kIdle,
// kRead, kWritten from the palette, app/view/palette.h); padding a hatched block of the full height;
// inf and NaN bars full height in kInf and kNaN, striped with the touch colour; strip cells coloured
// by value (kInf, kNaN where not finite) with a border in the touch colour.
uniform int u_mode;
uniform int u_row;
uniform vec2 u_sel;   // overview: the visible window (first, count)
in vec2 v_px;
out vec4 frag;

vec3 touch_colour(uint touch) { return (touch & 2u) != 0u ? kWritten : (touch & 1u) != 0u ? kRead : kIdle; }

void main() {
  int row = u_mode == 1 ? u_row : u_focus;
  bool elem = u_row_elem[row] == 1;
  int len = row_cells(row);
  float fx = index_at(row, v_px.x);
  float cw = cell_w_at(row, int(floor(fx)));  // padding cells are narrower than real ones
  int i0, i1;
  if (cw >= 1.0) {
    i0 = i1 = int(floor(fx));
    // A one-pixel gap between cells that have room for it.
    if (u_mode != 2 && cw > 4.0 && (fx - floor(fx)) * cw < 1.0) discard;
  } else {
    i0 = int(floor(index_at(row, v_px.x - 0.5)));
    i1 = int(ceil(index_at(row, v_px.x + 0.5))) - 1;
  }
  i0 = max(i0, 0);
  i1 = min(i1, len - 1);
  if (i0 > i1) discard;
  // What the column holds. Padding yields to real elements: a column with any real element shows
  // only those (a sort's pad key may sit among them).
  bool real = !elem;
  int stride = max(1, (i1 - i0 + 1) / 64);
  for (int i = i0; i <= i1 && !real; i += stride) real = !padding_word(row, i, word(row, i));
  float lo = 1e38, hi = -1e38, heat = 0.0, sum = 0.0;
  int finite_n = 0;
  bool inf = false, nan = false;
  uint touch = 0u;
  vec2 r = u_range[row];
  for (int i = i0; i <= i1; i += stride) {
    uint w = word(row, i);
    if (real && padding_word(row, i, w)) continue;
    touch |= touch_at(row, i);
    if (!finite_value(row, w)) {
      nan = nan || is_nan(row, w);
      inf = inf || !is_nan(row, w);
      continue;
    }
    float v = num(row, w);
    lo = min(lo, v);
    hi = max(hi, v);
    sum += v;
    heat += r.y > r.x ? clamp((0.5 * v - 0.5 * r.x) / (0.5 * r.y - 0.5 * r.x), 0.0, 1.0) : 0.5;
    ++finite_n;
  }
  bool hatch = mod(gl_FragCoord.x + gl_FragCoord.y, 8.0) < 2.5;
  bool stripe = mod(gl_FragCoord.y, 6.0) < 3.0;
  vec3 c;
  if (u_mode == 1) {
    c = finite_n > 0 ? mix(vec3(0.20, 0.30, 0.55), vec3(0.55, 0.85, 0.95), heat / float(finite_n)) : vec3(0.3);
    if (nan || inf) c = nan ? kNaN : kInf;
    if (!real) c = hatch ? kPadding + vec3(0.13) : kPadding;
    if (touch != 0u) {
      float y = v_px.y - u_row_y[row];
      float dx = cw >= 6.0 ? min(fx - floor(fx), ceil(fx) - fx) * cw : 1e9;
      if (min(min(y, u_strip_h - y), dx) < 2.0) c = touch_colour(touch);
    }
    frag = vec4(c, 1.0);
    return;
  }
  // Bars: non-finite values fill the whole height; finite ones span zero to their value.
  bool in_bar;
  if (nan || inf) {
    in_bar = true;
    c = stripe ? (nan ? kNaN : kInf) : touch_colour(touch);
  } else {
    float base = value_y(0.0), top = min(value_y(hi), base), bottom = max(value_y(lo), base);
    if (bottom - top < 1.0) top = bottom - 1.0;  // zero: one pixel on the baseline
    in_bar = v_px.y >= top && v_px.y <= bottom;
    c = touch_colour(touch);
    float mean = value_y(sum / float(max(finite_n, 1)));
    if (i1 > i0 && (v_px.y < min(mean, base) - 0.5 || v_px.y > max(mean, base) + 0.5)) c = mix(c, vec3(0.16), 0.5);
  }
  // Padding holds no value of the row's scale: a hatched block the bars' full height.
  if (!real) {
    in_bar = true;
    c = hatch ? kPadding + vec3(0.13) : kPadding;
  }
  if (u_mode == 2) {
    // Overview: the window is lit, the rest dimmed, its edges drawn.
    float ux = row_win(row).x + (v_px.x - u_bars.x) / cell_w(row);  // units
    bool inside = ux >= u_sel.x && ux <= u_sel.x + u_sel.y;
    float edge = min(abs(ux - u_sel.x), abs(ux - u_sel.x - u_sel.y)) * cell_w(row);
    if (edge < 1.0) { frag = vec4(0.95, 0.95, 1.0, 1.0); return; }
    if (!in_bar) { frag = inside ? vec4(1.0, 1.0, 1.0, 0.10) : vec4(0.0, 0.0, 0.0, 0.25); return; }
    frag = vec4(inside ? c : mix(c, vec3(0.12), 0.55), 1.0);
    return;
  }
  if (!in_bar) discard;
  frag = vec4(c, 1.0);
}
