namespace Trainyard { int ctlAnchor() { return 0; } }
