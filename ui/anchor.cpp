namespace Trainyard { int uiAnchor() { return 0; } }
