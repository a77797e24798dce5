package acb4000

import "fmt"

// Geometry is the physical layout of a drive: what MODE SELECT tells the
// controller and what the image sidecar records.
type Geometry struct {
	Name       string // key for --geometry
	Cylinders  int
	Heads      int
	Sectors    int // sectors per track at SectorSize
	SectorSize int // bytes
}

// ST125 is the Seagate ST-125 (MFM, ST-506/412): 615 cylinders x 4 heads x
// 17 sectors of 512 bytes = 41 820 blocks [F MICRONICS, RETROCMP; A until
// checked against a Seagate sheet, docs/HARDWARE.md 6].
var ST125 = Geometry{Name: "st125", Cylinders: 615, Heads: 4, Sectors: 17, SectorSize: 512}

// Geometries lists the drives `lbplus disk create --geometry` knows.
var Geometries = map[string]Geometry{ST125.Name: ST125}

// Blocks is the capacity in logical blocks.
func (g Geometry) Blocks() int { return g.Cylinders * g.Heads * g.Sectors }

// Validate checks that g is a geometry the controller can address.
func (g Geometry) Validate() error {
	switch {
	case g.Cylinders < 1 || g.Cylinders > 1024:
		return fmt.Errorf("cylinders %d out of range 1-1024", g.Cylinders)
	case g.Heads < 1 || g.Heads > 16:
		return fmt.Errorf("heads %d out of range 1-16", g.Heads)
	case g.Sectors < 2 || g.Sectors > 64:
		return fmt.Errorf("sectors per track %d out of range 2-64", g.Sectors)
	case g.SectorSize != 512:
		return fmt.Errorf("sector size %d unsupported (512 only)", g.SectorSize)
	case g.Blocks() > 1<<21:
		return fmt.Errorf("%d blocks exceed the 21-bit LBA of READ(6)", g.Blocks())
	}
	return nil
}

// CHS maps a logical block to cylinder, head and logical sector on the track
// (sectors run fastest, then heads, then cylinders) [A: the usual LBA order;
// the ACB manual gives no other].
func (g Geometry) CHS(lba int) (cyl, head, sector int) {
	t := lba / g.Sectors
	return t / g.Heads, t % g.Heads, lba % g.Sectors
}

// Interleave returns the FORMAT UNIT layout: slot[k] is the physical sector
// slot (0 = first after index) of logical sector k. Logical k goes to slot
// k*I mod n, or the next free slot after it when that one is taken
// [F ACB5500 p.72, docs/HARDWARE.md 5]. Every track has the same layout: no
// track or cylinder skew [D].
func Interleave(n, interleave int) []int {
	slot := make([]int, n)
	used := make([]bool, n)
	for k := range n {
		s := k * interleave % n
		for used[s] {
			s = (s + 1) % n
		}
		used[s] = true
		slot[k] = s
	}
	return slot
}
