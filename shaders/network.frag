// Comparator network colours; padding wires are dashed.
flat in vec4 v_color;
flat in int v_dash;
in float v_y;
out vec4 frag;
void main() {
  if (v_dash == 1 && mod(v_y, 6.0) > 3.0) discard;
  frag = v_color;
}
