# What Blender's own glTF importer makes of each file, one line "REPORT {json}" per file, in order
# (one Blender process for all: its start-up is most of the time):
#   blender -b --factory-startup --python test/blender/import_report.py -- FILE.glb ...
# (test/unit/blender-import.test.ts runs it on our exports). Bones of every armature, vertices of
# every mesh object, the glTF animations as Blender keeps them (the importer makes one action per
# animation and animated object, named "<animation>_<object>", and one NLA track per animation
# named after it on each object it moves: the track names are the glTF animation names), shape keys.
import json
import sys

import bpy
import numpy

# Debian's Blender 3.4 importer still uses numpy's removed `bool` alias.
if not hasattr(numpy, "bool"):
    numpy.bool = bool



def report(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=path)
    objects = list(bpy.data.objects)
    armatures = [o for o in objects if o.type == "ARMATURE"]
    meshes = [o for o in objects if o.type == "MESH"]
    tracks = set()
    for o in objects:
        for holder in (o, o.data.shape_keys if o.type == "MESH" and o.data.shape_keys else None):
            data = getattr(holder, "animation_data", None) if holder is not None else None
            if data:
                tracks.update(t.name for t in data.nla_tracks)
    return {
        "file": path,
        "armatures": len(armatures),
        "bones": sum(len(a.data.bones) for a in armatures),
        "meshes": len(meshes),
        "vertices": sum(len(m.data.vertices) for m in meshes),
        "actions": sorted(a.name for a in bpy.data.actions),
        "animations": sorted(tracks),
        "shape_keys": sum(len(m.data.shape_keys.key_blocks) for m in meshes if m.data.shape_keys),
    }


for path in sys.argv[sys.argv.index("--") + 1:]:
    try:
        result = report(path)
    except Exception as error:  # one file's failure is reported as that file's, the others go on
        result = {"file": path, "error": repr(error)}
    print("REPORT " + json.dumps(result), flush=True)
