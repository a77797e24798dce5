package window

// The device panels (ACB-4000, tape, floppy, ...).

func (w *Window) drawPanels(c *canvas) {
	panel(c, panelsArea, "Devices")
	y := panelsArea.Min.Y + 18
	if len(w.opt.Panels) == 0 {
		print(c, panelsArea.Min.X+6, y, "no device panels", colDim)
	}
	room := func() bool { return y+lineH <= panelsArea.Max.Y }
	cur := w.d.Cursor()
	for i, p := range w.opt.Panels {
		if !room() {
			break
		}
		lines := p.Lines()
		if cur != nil && len(cur.Panels()) == len(w.opt.Panels) {
			lines = cur.Panels()[i]
		}
		print(c, panelsArea.Min.X+6, y, p.Title(), colTitle)
		y += lineH
		// A line wider than the panel is cut at its edge (ending in
		// ">"), not drawn over the next panel.
		width := int(float64(panelsArea.Max.X-panelsArea.Min.X-22) / charW)
		for _, l := range lines {
			if !room() {
				break
			}
			if len(l) > width {
				l = l[:width-1] + ">"
			}
			print(c, panelsArea.Min.X+16, y, l, colText)
			y += lineH
		}
	}
}
