// VigilGeometry
