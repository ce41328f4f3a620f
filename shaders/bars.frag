// Colours: idle, read in this step, written in this step; padding hatched; non-finite values
// striped; strip cells coloured by value with a border when touched. kIdle, kRead, kWritten and
// kPadding come from the palette (app/view/palette.h).
flat in uint v_touch;
flat in int v_flags;
in float v_heat;
in vec2 v_local;
in vec2 v_size;
out vec4 frag;
void main() {
  bool cell = (v_flags & 4) != 0;
  vec3 c;
  if (cell) c = mix(vec3(0.20, 0.30, 0.55), vec3(0.55, 0.85, 0.95), v_heat);
  else c = (v_touch & 2u) != 0u ? kWritten : (v_touch & 1u) != 0u ? kRead : kIdle;
  if ((v_flags & 2) != 0 && mod(gl_FragCoord.y, 6.0) < 3.0) c = vec3(0.9, 0.2, 0.9);
  if ((v_flags & 1) != 0) {
    c = kPadding;
    if (mod(gl_FragCoord.x + gl_FragCoord.y, 8.0) < 2.5) c = kPadding + vec3(0.13);
  }
  if (cell && v_touch != 0u) {
    vec2 d = min(v_local, 1.0 - v_local) * v_size;
    if (min(d.x, d.y) < 2.0) c = (v_touch & 2u) != 0u ? kWritten : kRead;
  }
  frag = vec4(c, 1.0);
}
