// Alternating bands per block, a line at each warp boundary, a stronger one at each block boundary.
in vec2 v_px;
out vec4 frag;
int owner_thread(int i) { return i / max(u_ept, 1); }
void main() {
  float w = u_bars.z / float(u_width);
  float fx = (v_px.x - u_bars.x) / w;
  int i = clamp(int(floor(fx)), 0, u_width - 1);
  int t = owner_thread(i);
  int block = t / max(u_block, 1);
  int warp = (t % max(u_block, 1)) / 32;
  vec3 c = (block % 2 == 0) ? vec3(0.16, 0.17, 0.20) : vec3(0.20, 0.21, 0.26);
  if (i >= u_n) c = vec3(0.13, 0.13, 0.14);
  // Boundaries fall between elements i-1 and i.
  float edge = abs(fx - round(fx)) * w;
  int j = int(round(fx));
  if (j > 0 && j < u_width && edge < 1.0) {
    int ta = owner_thread(j - 1), tb = owner_thread(j);
    int ba = ta / max(u_block, 1), bb = tb / max(u_block, 1);
    if (ba != bb) c = vec3(0.85, 0.85, 0.9);
    else if ((ta % max(u_block, 1)) / 32 != (tb % max(u_block, 1)) / 32) c = vec3(0.45, 0.48, 0.6);
  }
  frag = vec4(c, 1.0);
}
